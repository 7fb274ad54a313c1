// The resolution step: every entry point off the fast path passes through the one step that runs what wraps a
// resolution (ResolutionStep.swift). Each test is a grid over the entry points, for one of the step's checks.
import Forge
import Testing

private final class SyncMade: Sendable {}
private final class MainActorMade: Sendable {}
private final class ParameterMade: Sendable {}
private final class LazyMade: Sendable {}
private final class TriedMade: Sendable {}
private final class AsyncMade: Sendable {}
private final class PrewarmedMade: Sendable {}
private final class VerifiedMade: Sendable {}
private final class StepHolder: Sendable {
    let part: AnyObject & Sendable
    init(_ part: AnyObject & Sendable) { self.part = part }
}

extension Container.Scope {
    fileprivate static let stepSession = Cached(name: "stepSession")
}

extension Container {
    fileprivate static let stepSync = Factory { SyncMade() }
    fileprivate static let stepMainActor = MainActorFactory { MainActorMade() }
    fileprivate static let stepParameter = ParameterFactory<Int, ParameterMade> { _ in ParameterMade() }
    fileprivate static let stepLazy = Factory { LazyMade() }
    fileprivate static let stepTried = Factory { TriedMade() }
    fileprivate static let stepAsync = AsyncFactory { AsyncMade() }
    fileprivate static let stepPrewarmed = Factory(scope: .singleton) { PrewarmedMade() }
    fileprivate static let stepVerified = Factory { VerifiedMade() }

    // A singleton holder of a session-scoped part, resolved through each entry point a closure can use.
    fileprivate static let sessionPart = Factory(scope: .stepSession) { SyncMade() }
    fileprivate static let sessionParameterPart = ParameterFactory<Int, ParameterMade>(scope: .stepSession) { _ in
        ParameterMade()
    }
    fileprivate static let sessionMainActorPart = MainActorFactory(scope: .stepSession) { MainActorMade() }
    fileprivate static let sessionAsyncPart = AsyncFactory(scope: .stepSession) { AsyncMade() }
    fileprivate static let holderBySync = Factory(scope: .singleton) { StepHolder(sessionPart()) }
    fileprivate static let holderByParameter = Factory(scope: .singleton) { StepHolder(sessionParameterPart(1)) }
    fileprivate static let holderByTry = Factory(scope: .singleton) {
        StepHolder((try? sessionPart.tryResolve()) ?? SyncMade())
    }
    fileprivate static let holderByLazyRead = Factory(scope: .singleton) {
        StepHolder(LazyDependency(sessionPart).value)
    }
    fileprivate static let holderByMainActor = MainActorFactory(scope: .singleton) {
        StepHolder(sessionMainActorPart())
    }
    fileprivate static let holderByAsync = AsyncFactory(scope: .singleton) { StepHolder(await sessionAsyncPart()) }
}

/// The entry points of a resolution off the fast path.
private enum EntryPoint: String, CaseIterable {
    case sync, mainActor, parameter, lazyFirstRead, tryResolve, async, prewarm, verify

    /// The type the entry point's factory makes, as a trace names it.
    var madeType: String {
        switch self {
        case .sync: "SyncMade"
        case .mainActor: "MainActorMade"
        case .parameter: "ParameterMade"
        case .lazyFirstRead: "LazyMade"
        case .tryResolve: "TriedMade"
        case .async: "AsyncMade"
        case .prewarm: "PrewarmedMade"
        case .verify: "VerifiedMade"
        }
    }

    /// Resolves this entry point's factory once, through the entry point.
    func resolve() async {
        switch self {
        case .sync: _ = Container.stepSync()
        case .mainActor: _ = await MainActor.run { Container.stepMainActor() }
        case .parameter: _ = Container.stepParameter(1)
        case .lazyFirstRead: _ = LazyDependency(Container.stepLazy).value
        case .tryResolve: _ = try? Container.stepTried.tryResolve()
        case .async: _ = await Container.stepAsync()
        case .prewarm: await Container.prewarm(Container.stepPrewarmed)
        case .verify: _ = await Container.Diagnostics.verify { _ = Container.stepVerified() }
        }
    }
}

@Suite struct ResolutionStepTests {
    @Test("Every entry point's instance is decorated once, and traced once as new")
    func decoratorAndTraceSeeEveryEntryPoint() async {
        // The decorator and the trace hook are global: set in a process of their own, so that no other suite's
        // resolutions or hooks mix in.
        await #expect(processExitsWith: .success) {
            let decorated = Locked<[String]>([])
            let traced = Locked<[String]>([])
            // This file's instances only: the test process resolves others of its own.
            Container.Decorator.decorate = { instance in
                let type = "\(type(of: instance))"
                if type.hasSuffix("Made") { decorated.mutate { $0.append(type) } }
            }
            Container.Diagnostics.trace = { event in
                if event.source == .new && event.type.hasSuffix("Made") { traced.mutate { $0.append(event.type) } }
            }
            for entry in EntryPoint.allCases {
                decorated.value = []
                traced.value = []
                await entry.resolve()
                #expect(decorated.value == [entry.madeType], "decorated through \(entry.rawValue): \(decorated.value)")
                #expect(traced.value == [entry.madeType], "traced through \(entry.rawValue): \(traced.value)")
            }
        }
    }

    @Test(
        "A captive dependency is found through every entry point a closure can resolve by",
        arguments: [EntryPoint.sync, .parameter, .tryResolve, .lazyFirstRead, .mainActor, .async])
    fileprivate func captiveThroughEachEntryPoint(entry: EntryPoint) async {
        let report: Container.Diagnostics.VerificationReport
        switch entry {
        case .sync: report = await Container.Diagnostics.verify { _ = Container.holderBySync() }
        case .parameter: report = await Container.Diagnostics.verify { _ = Container.holderByParameter() }
        case .tryResolve: report = await Container.Diagnostics.verify { _ = Container.holderByTry() }
        case .lazyFirstRead: report = await Container.Diagnostics.verify { _ = Container.holderByLazyRead() }
        case .mainActor: report = await Container.Diagnostics.verify { @MainActor in _ = Container.holderByMainActor() }
        case .async: report = await Container.Diagnostics.verify { _ = await Container.holderByAsync() }
        case .prewarm, .verify: return
        }
        #expect(report.problems.map(\.kind) == [.captiveDependency], "\(report)")
    }
}
