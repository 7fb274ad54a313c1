// Composers and leaves in a strict test: a live closure that resolves a factory as it runs (a use case, a facade, a
// view model) composes, and is not reported; a leaf, one that resolves none, is, naming the composers that reached it.
// The suites are shaped like the apps the rule was tried on: a Swinject app, a Factory 3.x app and a
// swift-dependencies app, whose first strict run should report the forgotten mocks and nothing else.
import Foundation
import Testing

@_spi(ForgeTesting) @testable import Forge

// MARK: A Swinject app: repositories and services, use cases over them, view models over those

private protocol ClipsRepository: Sendable { func clips() -> [String] }
private final class UserDefaultsClipsRepository: ClipsRepository { func clips() -> [String] { ["live clip"] } }
private final class StubClipsRepository: ClipsRepository { func clips() -> [String] { ["stub clip"] } }

private protocol Analytics: Sendable { func track(_ event: String) -> String }
private final class LiveAnalytics: Analytics { func track(_ event: String) -> String { "sent \(event)" } }
private final class SilentAnalytics: Analytics { func track(_ event: String) -> String { "kept \(event)" } }

private final class GetClipsUseCase: Sendable {
    let repository: any ClipsRepository
    let analytics: any Analytics
    init(repository: any ClipsRepository, analytics: any Analytics) {
        self.repository = repository
        self.analytics = analytics
    }
}

private final class ClipsViewModel: Sendable {
    let clips: [String]
    let tracked: String
    init(getClips: GetClipsUseCase) {
        clips = getClips.repository.clips()
        tracked = getClips.analytics.track("clips shown")
    }
}

extension Container {
    // As a Swinject assembly registers them, `.container` services mapped to singletons, the rest unique.
    fileprivate static let clipsRepository = Factory<any ClipsRepository>(scope: .singleton) {
        UserDefaultsClipsRepository()
    }
    fileprivate static let clipsAnalytics = Factory<any Analytics>(scope: .singleton) { LiveAnalytics() }
    fileprivate static let getClips = Factory {
        GetClipsUseCase(repository: clipsRepository(), analytics: clipsAnalytics())
    }
    fileprivate static let clipsViewModel = Factory { ClipsViewModel(getClips: getClips()) }
}

// MARK: A Factory 3.x app: view models with @Injected properties, pure values and constants

private final class Cart: Sendable {
    let items: [String]
    init(_ items: [String]) { self.items = items }
}

private final class AmountFormatter: Sendable {
    func format(_ amount: Double) -> String { String(format: "%.2f", amount) }
}

private final class CheckoutViewModel {
    @Injected(Container.checkoutCart) private var cart
    @Injected(Container.checkoutFormatter) private var formatter
    @Injected(Container.checkoutTaxRate) private var taxRate
    @Injected(Container.currencyCode) private var currency

    var total: String { "\(formatter.format(Double(cart.items.count) * (1 + taxRate))) \(currency)" }
}

extension Container {
    /// A service the test mocks.
    fileprivate static let checkoutCart = Factory(scope: .cached) { Cart(["from the server"]) }
    /// A pure value: the user's call, reported unless marked.
    fileprivate static let checkoutFormatter = Factory { AmountFormatter() }
    /// A constant, the same.
    fileprivate static let checkoutTaxRate = Factory { 0.25 }
    /// A constant marked safe to run in tests.
    fileprivate static let currencyCode = Factory { "EUR" }.liveInTests
    fileprivate static let checkoutViewModel = Factory { CheckoutViewModel() }
}

// MARK: A swift-dependencies app: clients as structs of closures, one built from another

private struct FactsHTTPClient: Sendable {
    var get: @Sendable (String) -> String
}

private struct NumberFactClient: Sendable {
    var fetch: @Sendable (Int) -> String
}

private final class NumberFactModel: Sendable {
    let fact: String
    let id: UUID
    init(numberFact: NumberFactClient, uuid: @Sendable () -> UUID) {
        fact = numberFact.fetch(42)
        id = uuid()
    }
}

extension Container {
    /// A `liveValue`: a leaf.
    fileprivate static let factsHTTP = Factory(scope: .singleton) { FactsHTTPClient(get: { "live \($0)" }) }
    /// `\.uuid`'s counterpart: a leaf, which the app's tests forget.
    fileprivate static let factsUUID = Factory<@Sendable () -> UUID> { { UUID() } }
    /// A client whose `liveValue` reads another dependency when it is made: a composer.
    fileprivate static let numberFact = Factory(scope: .singleton) {
        let http = factsHTTP()
        return NumberFactClient(fetch: { http.get("/fact/\($0)") })
    }
    /// The same client reading the other dependency in its endpoint, later: it resolves none as its closure runs.
    fileprivate static let lazyNumberFact = Factory(scope: .singleton) {
        NumberFactClient(fetch: { factsHTTP().get("/fact/\($0)") })
    }
    fileprivate static let numberFactModel = Factory { NumberFactModel(numberFact: numberFact(), uuid: factsUUID()) }
}

// MARK: Lazy, async, parameter and afterMake composers

private final class LiveService: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

private final class LazyScreen: @unchecked Sendable {
    // @unchecked: the property wrapper's storage is a `var`, which LazyInjected guards itself.
    @LazyInjected(Container.lazyScreenService) var service
}

private final class Holder: Sendable {
    let held = Locked<LiveService?>(nil)
}

private final class AsyncUseCase: Sendable {
    let names: [String]
    init(_ services: LiveService...) { names = services.map(\.name) }
}

extension Container {
    fileprivate static let lazyScreenService = Factory { LiveService("live") }
    fileprivate static let lazyScreen = Factory { LazyScreen() }

    fileprivate static let asyncRepository = AsyncFactory(scope: .singleton) { LiveService("live repository") }
    /// Cached: its closure runs in a task of its own, which the composer awaits.
    fileprivate static let asyncStore = AsyncFactory(scope: .cached) { LiveService("live store") }
    fileprivate static let syncClock = Factory { LiveService("live clock") }
    fileprivate static let asyncUseCase = AsyncFactory {
        AsyncUseCase(await asyncRepository(), await asyncStore(), syncClock())
    }
    /// An async composer whose one dependency the test made already: it finds the kept instance.
    fileprivate static let asyncRepositoryReader = AsyncFactory { AsyncUseCase(await asyncRepository()) }

    fileprivate static let pageLoader = Factory { LiveService("live loader") }
    fileprivate static let page = ParameterFactory<Int, AsyncUseCase> { number in
        AsyncUseCase(LiveService("page \(number)"), pageLoader())
    }

    fileprivate static let completedChild = Factory { LiveService("live child") }
    /// Swinject's `initCompleted`: the closure makes the holder, the hook completes it.
    fileprivate static let completedHolder = Factory { Holder() }.afterMake { $0.held.value = completedChild() }
}

// MARK: Threads

/// Held open by ``Container/gatedLeaf``'s closure, while another thread composes in the same world.
private let leafGate = Gate()

extension Container {
    fileprivate static let gatedLeaf = Factory {
        leafGate.pass()
        return LiveService("live")
    }
}

// MARK: A live client built from a constant marked safe to run in tests

private final class MarkedConfigClient: Sendable {
    let url: String
    init(url: String) { self.url = url }
}

extension Container {
    fileprivate static let markedBaseURL = Factory { "https://api.example.com" }.liveInTests
    /// A live client whose only dependency is marked: it composes nothing, and is a leaf.
    fileprivate static let markedConfigClient = Factory { MarkedConfigClient(url: markedBaseURL()) }
    fileprivate static let markedConfigScreen = Factory { [markedConfigClient().url] }
}

@Suite struct ComposersTests {
    @Test("A Swinject-shaped app: only the forgotten service is reported, through the use case and the view model")
    func swinjectApp() async throws {
        let (model, problems) = await collectingProblems(named: "clips", strict: true) {
            Container.clipsRepository.register { StubClipsRepository() }
            return Container.clipsViewModel()
        }
        #expect(model.clips == ["stub clip"])
        #expect(model.tracked == "sent clips shown")
        try #require(problems.count == 1, "\(problems)")
        let problem = problems[0]
        #expect(problem.factory == Container.clipsAnalytics.box.displayName)
        #expect(problem.description.contains("and resolved no other factory as it ran"), "\(problem.description)")
        // The chain is named where this thread records it: with cycle detection on (debug builds).
        if CycleDetection.isOn {
            #expect(
                problem.chain == [
                    Container.clipsViewModel.box.displayName, Container.getClips.box.displayName,
                    Container.clipsAnalytics.box.displayName,
                ], "\(problem.description)")
        }
    }

    @Test("A composer whose dependencies the test registered reports nothing, nor when it finds their kept instances")
    func registeredDependencies() async {
        let (tracked, problems) = await collectingProblems(strict: true) {
            Container.clipsRepository.register { StubClipsRepository() }
            Container.clipsAnalytics.register { SilentAnalytics() }
            // The test makes the singletons first: the composers then resolve only kept instances.
            _ = Container.clipsRepository()
            _ = Container.clipsAnalytics()
            return [Container.clipsViewModel().tracked, Container.clipsViewModel().tracked]
        }
        #expect(tracked == ["kept clips shown", "kept clips shown"])
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("A Factory 3.x-shaped app: the view model is not reported; a pure value and a constant are, unless marked")
    func factory3App() async {
        let (total, problems) = await collectingProblems(strict: true) {
            Container.checkoutCart.register { Cart(["tea", "jam"]) }
            return Container.checkoutViewModel().total
        }
        #expect(total == "2.50 EUR")
        #expect(
            Set(problems.map(\.factory)) == [
                Container.checkoutFormatter.box.displayName, Container.checkoutTaxRate.box.displayName,
            ], "\(problems)")
        #expect(problems.count == 2)
        #expect(problems.allSatisfy { $0.description.contains(".liveInTests") })
    }

    @Test("A swift-dependencies-shaped app: a client built from another is not reported; the forgotten one is")
    func swiftDependenciesApp() async {
        let (fact, problems) = await collectingProblems(strict: true) {
            Container.factsHTTP.register { FactsHTTPClient(get: { "test \($0)" }) }
            return Container.numberFactModel().fact
        }
        #expect(fact == "test /fact/42")
        #expect(problems.map(\.factory) == [Container.factsUUID.box.displayName], "\(problems)")
        if CycleDetection.isOn {
            #expect(problems.first?.chain.first == Container.numberFactModel.box.displayName)
        }
    }

    @Test(
        "Resolving a factory marked liveInTests composes nothing: a live client built from a marked constant is a leaf")
    func aMarkedDependencyComposesNothing() async {
        let (urls, problems) = await collectingProblems(strict: true) { Container.markedConfigScreen() }
        #expect(urls == ["https://api.example.com"])
        // The screen resolved the client, which is not marked: it composes. The client resolved only the marked
        // constant: a leaf, reported, naming the screen.
        #expect(problems.map(\.factory) == [Container.markedConfigClient.box.displayName], "\(problems)")
        if CycleDetection.isOn {
            #expect(problems.first?.chain.first == Container.markedConfigScreen.box.displayName)
        }
    }

    @Test("A factory that resolves its dependencies later, lazily, resolved none as its closure ran: it is reported")
    func lazyDependenciesMakeALeaf() async {
        let (names, problems) = await collectingProblems(strict: true) {
            Container.lazyScreenService.register { LiveService("mock") }
            Container.factsHTTP.register { FactsHTTPClient(get: { "test \($0)" }) }
            return [Container.lazyScreen().service.name, Container.lazyNumberFact().fetch(7)]
        }
        #expect(names == ["mock", "test /fact/7"])
        #expect(
            problems.map(\.factory) == [
                Container.lazyScreen.box.displayName, Container.lazyNumberFact.box.displayName,
            ],
            "\(problems)")
        let message = problems.first?.description ?? ""
        #expect(
            message.contains("one that resolves them later (a lazy property, a method) resolves none"), "\(message)")
        #expect(message.contains("resolve them in its closure (pass them to its initializer), or mark it"))
    }

    @Test("An async composer over async and synchronous factories: only the leaves are reported, naming it")
    func asyncComposer() async {
        let (names, problems) = await collectingProblems(strict: true) {
            Container.asyncRepository.register { LiveService("mock repository") }
            return await Container.asyncUseCase().names
        }
        #expect(names == ["mock repository", "live store", "live clock"])
        #expect(
            Set(problems.map(\.factory)) == [
                Container.asyncStore.box.displayName, Container.syncClock.box.displayName,
            ],
            "\(problems)")
        #expect(problems.count == 2)
        // An async resolution's chain is the task's, recorded in every build.
        #expect(
            problems.allSatisfy { $0.chain.first == Container.asyncUseCase.box.displayName },
            "\(problems.map(\.chain))")
    }

    @Test("An async composer that finds only a kept instance composes too")
    func asyncComposerOverAHit() async {
        let (names, problems) = await collectingProblems(strict: true) {
            Container.asyncRepository.register { LiveService("mock repository") }
            _ = await Container.asyncRepository()
            return await Container.asyncRepositoryReader().names
        }
        #expect(names == ["mock repository"])
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test("A parameter factory composes for each value; the leaf it reaches is reported once")
    func parameterComposer() async {
        let (names, problems) = await collectingProblems(strict: true) {
            [Container.page(1).names, Container.page(2).names]
        }
        #expect(names == [["page 1", "live loader"], ["page 2", "live loader"]])
        #expect(problems.map(\.factory) == [Container.pageLoader.box.displayName], "\(problems)")
        if CycleDetection.isOn {
            #expect(problems.first?.chain == [Container.page.box.displayName, Container.pageLoader.box.displayName])
        }
    }

    @Test("A factory whose afterMake hook resolves composes: the hook is a part of making the instance")
    func afterMakeComposes() async {
        let (name, problems) = await collectingProblems(strict: true) {
            Container.completedHolder().held.value?.name
        }
        #expect(name == "live child")
        #expect(problems.map(\.factory) == [Container.completedChild.box.displayName], "\(problems)")
    }

    @Test("Two strict tests in parallel over one view model: each hears of its own forgotten service, and only that")
    func twoTestsInParallel() async {
        let arrived = Occurrences("a strict test started")
        async let first = collectingProblems(named: "first", strict: true) {
            Container.clipsRepository.register { StubClipsRepository() }
            arrived.signal()
            await arrived.expect(2, within: 10)
            return Container.clipsViewModel().clips
        }
        async let second = collectingProblems(named: "second", strict: true) {
            Container.clipsAnalytics.register { SilentAnalytics() }
            arrived.signal()
            await arrived.expect(2, within: 10)
            return Container.clipsViewModel().clips
        }
        let ((firstClips, firstProblems), (secondClips, secondProblems)) = await (first, second)
        #expect(firstClips == ["stub clip"])
        #expect(secondClips == ["live clip"])
        #expect(firstProblems.map(\.factory) == [Container.clipsAnalytics.box.displayName], "\(firstProblems)")
        #expect(secondProblems.map(\.factory) == [Container.clipsRepository.box.displayName], "\(secondProblems)")
        #expect(firstProblems.first?.world.contains("\"first\"") == true)
        #expect(secondProblems.first?.world.contains("\"second\"") == true)
    }

    @Test(
        "A leaf on one thread is reported while another thread composes in the same world: each thread counts its own")
    func aLeafBesideAComposerOnAnotherThread() async {
        let (name, problems) = await collectingProblems(strict: true) {
            Container.clipsRepository.register { StubClipsRepository() }
            Container.clipsAnalytics.register { SilentAnalytics() }
            let registrations = Container.Registrations.capture()
            async let leaf = awaitingAThread { registrations.run { Container.gatedLeaf().name } }
            await leafGate.waitUntilEntered()
            // While the leaf's closure runs on its thread, this one resolves the view model, its use case and theirs.
            _ = Container.clipsViewModel()
            leafGate.release()
            return await leaf
        }
        #expect(name == "live")
        #expect(problems.map(\.factory) == [Container.gatedLeaf.box.displayName], "\(problems)")
    }
}
