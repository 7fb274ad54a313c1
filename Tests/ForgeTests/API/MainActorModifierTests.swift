// Main-actor factories take every modifier a Factory takes (promised, tryResolve, contexts, onDispose, timeToLive),
// and MainActorParameterFactory every one a ParameterFactory takes; their closures and hooks run on the main actor.
import Forge
import Testing

/// A main-actor model that records, on the main actor, when it is stopped.
@MainActor final class PlayerModel {
    let name: String
    private(set) var stopped = false
    init(_ name: String = "live") {
        MainActor.assertIsolated("made off the main actor")
        self.name = name
    }
    func stop() {
        MainActor.assertIsolated("stopped off the main actor")
        stopped = true
    }
}

/// The names of the models the dispose hooks saw, in order, since the test started recording them.
@MainActor private var disposals: [String] = []
/// The dispose hooks' runs since the test started recording them, for the test to wait for.
@MainActor private var disposalRuns = Occurrences("a dispose hook ran")

/// Records, on the main actor, that a dispose hook saw the model named `name`.
@MainActor private func recordDisposal(_ name: String) {
    disposals.append(name)
    disposalRuns.signal()
}

/// Starts the record of what the dispose hooks see anew, for one test.
@MainActor private func startRecordingDisposals() {
    disposals = []
    disposalRuns = Occurrences("a dispose hook ran")
}

/// Suspends, letting the main actor run the dispose hooks' tasks (queued when the scope lets go), until `count` have
/// run since the test started recording; at the deadline, an issue of the test.
@MainActor private func waitForDisposals(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
    await disposalRuns.expect(count, sourceLocation: sourceLocation)
}

extension Container {
    fileprivate static let settings = MainActorFactory<PlayerModel>.promised()
    fileprivate static let contextualPlayer = MainActorFactory { PlayerModel("own") }
        .onTest { PlayerModel("test") }
        .onPreview { PlayerModel("preview") }
        .onDebug { PlayerModel("debug") }
        .onArg("--demo") { PlayerModel("demo") }
    fileprivate static let disposedPlayer = MainActorFactory(scope: .cached) { PlayerModel("disposed") }
        .onDispose { player in
            player.stop()
            recordDisposal(player.name)
        }
    fileprivate static let expiringPlayer = MainActorFactory(scope: .cached) { PlayerModel() }.timeToLive(60)

    fileprivate static let editor = MainActorParameterFactory<Int, PlayerModel> { PlayerModel("editor \($0)") }
    fileprivate static let editorPerDocument = MainActorParameterFactory<Int, PlayerModel>(scope: .cached) {
        PlayerModel("document \($0)")
    }
    .scopeOnParameters
    .onDispose { recordDisposal($0.name) }
    .timeToLive(60)
    fileprivate static let promisedEditor = MainActorParameterFactory<Int, PlayerModel>.promised()
    fileprivate static let contextualEditor = MainActorParameterFactory<Int, PlayerModel> { PlayerModel("own \($0)") }
        .onArg("--demo") { PlayerModel("demo \($0)") }
        .onTest { PlayerModel("test \($0)") }
}

/// Resets a scope off the main actor (a nonisolated async function runs on the generic executor), in the calling
/// task's world.
private nonisolated func resetCachedScopeOffTheMainActor() async {
    Container.Scope.cached.reset()
}

/// Resolves off the main actor, in the calling task's world.
private nonisolated func resolveEditorOffTheMainActor(_ document: Int) async -> PlayerModel {
    await Container.promisedEditor.resolve(document)
}

private typealias RunContext = SharedContainer.RunContext

/// Serialized: the dispose tests share `disposals`.
@Suite(.serialized) @MainActor struct MainActorModifierTests {
    @Test("A promised main-actor factory throws from tryResolve() until the app registers one")
    func promised() {
        Container.Registrations.isolated {
            let error = #expect(throws: ResolutionError.self) { try Container.settings.tryResolve() }
            #expect(error?.kind == .promiseNotFulfilled)
            #expect(error?.description.contains("MainActorFactory<PlayerModel>") == true)
            Container.settings.register { PlayerModel("registered") }
            let registered = try? Container.settings.tryResolve()
            #expect(registered?.name == "registered")
        }
    }

    @Test("Contexts replace a main-actor factory's closure, in Factory's order, on the main actor")
    func contexts() {
        func made(_ context: RunContext) -> String {
            Container.Registrations.isolated(runContext: context) { Container.contextualPlayer().name }
        }
        #expect(made(RunContext(arguments: ["App"])) == "own")
        #expect(made(RunContext(arguments: ["App"], isDebugBuild: true)) == "debug")
        #expect(made(RunContext(arguments: ["AppTests.xctest"], isDebugBuild: true)) == "test")
        #expect(made(RunContext(arguments: ["App"], environment: ["XCODE_RUNNING_FOR_PREVIEWS": "1"])) == "preview")
        #expect(made(RunContext(arguments: ["AppTests.xctest", "--demo"])) == "demo")
    }

    @Test("onDispose runs on the main actor, in a task, after a reset on the main actor")
    func disposeAfterAResetOnTheMainActor() async {
        startRecordingDisposals()
        await Container.Registrations.isolated {
            let player = Container.disposedPlayer()
            Container.disposedPlayer.reset(.scope)
            #expect(!player.stopped)  // the hook's task runs once this code suspends
            await waitForDisposals(1)
            #expect(player.stopped)  // stop() checks that it runs on the main actor
            #expect(disposals == ["disposed"])
        }
    }

    @Test("onDispose of an instance let go of off the main actor runs on the main actor")
    func disposeOffTheMainActor() async {
        startRecordingDisposals()
        await Container.Registrations.isolated {
            let player = Container.disposedPlayer()
            await resetCachedScopeOffTheMainActor()
            await waitForDisposals(1)
            #expect(player.stopped)
            #expect(disposals == ["disposed"])
        }
    }

    @Test("timeToLive expires a main-actor factory's instance on the world's clock")
    func timeToLive() {
        let clock = HandClock()
        Container.Registrations.isolated(runContext: clock.runContext) {
            let first = Container.expiringPlayer()
            clock.advance(by: 59)
            #expect(Container.expiringPlayer() === first)
            clock.advance(by: 1)
            #expect(Container.expiringPlayer() !== first)
        }
    }
}

/// The runs of the hook of `expiringInGraph`, for the test to wait for.
@MainActor private var graphHookRuns = Occurrences("the dispose hook of expiringInGraph ran")

extension Container {
    fileprivate static let hookLeaf = Factory { Tracked(id: 99) }
    fileprivate static let expiringInGraph = MainActorFactory(scope: .cached) { PlayerModel("expiring") }
        .timeToLive(10)
        .onDispose { _ in
            _ = Container.hookLeaf()
            graphHookRuns.signal()
        }
    fileprivate static let awaitsExpiring = AsyncFactory { await Container.expiringInGraph.resolve().name }
}

extension MainActorModifierTests {
    /// The hook's task must not inherit the resolution and the graph recording of the task that let go of the
    /// instance: what it resolves would then show up as made by the async factory whose resolution found the instance
    /// expired.
    @Test("A dispose hook's resolutions are no part of the graph or resolution that let go of the instance")
    func disposeHookOutsideTheGraph() async {
        graphHookRuns = Occurrences("the dispose hook of expiringInGraph ran")
        let clock = HandClock()
        await Container.Registrations.isolated(runContext: clock.runContext) {
            _ = Container.expiringInGraph()
            clock.advance(by: 10)
            let graph = await Container.Diagnostics.graph {
                #expect(await Container.awaitsExpiring() == "expiring")  // finds it expired: the hook's task starts
                await graphHookRuns.expect()  // it runs while the graph records
            }
            #expect(!graph.nodes.contains { $0.type == "Tracked" }, "\(graph.mermaid)")
        }
    }

    @Test("MainActorParameterFactory: unique per call, registered, reset, in the caller's world")
    func parameterFactory() {
        Container.Registrations.isolated {
            #expect(Container.editor(1).name == "editor 1")
            #expect(Container.editor(1) !== Container.editor(1))
            Container.editor.register { PlayerModel("mock \($0)") }
            #expect(Container.editor(2).name == "mock 2")
            Container.editor.reset()
            #expect(Container.editor(2).name == "editor 2")
        }
    }

    @Test("MainActorParameterFactory: one instance per value, disposed of on the main actor, expiring")
    func parameterFactoryModifiers() async {
        startRecordingDisposals()
        let clock = HandClock()
        await Container.Registrations.isolated(runContext: clock.runContext) {
            let one = Container.editorPerDocument(1)
            #expect(Container.editorPerDocument(1) === one)
            #expect(Container.editorPerDocument(2) !== one)
            clock.advance(by: 60)
            #expect(Container.editorPerDocument(1) !== one)  // expired, and disposed of
            await waitForDisposals(1)
            #expect(disposals == ["document 1"])
            Container.editorPerDocument.reset(.scope)
            await waitForDisposals(3)
            #expect(Set(disposals) == ["document 1", "document 2"])
            #expect(disposals.count == 3)
        }
    }

    @Test("MainActorParameterFactory: promised, contexts, and resolve(_:) from any context")
    func parameterFactoryPromisedAndContexts() async {
        await Container.Registrations.isolated(runContext: RunContext(arguments: ["App"])) {
            #expect(throws: ResolutionError.self) { try Container.promisedEditor.tryResolve(1) }
            Container.promisedEditor.register { PlayerModel("registered \($0)") }
            let registered = try? Container.promisedEditor.tryResolve(3)
            #expect(registered?.name == "registered 3")
            #expect(Container.contextualEditor(4).name == "own 4")
            let model = await resolveEditorOffTheMainActor(5)
            #expect(model.name == "registered 5")  // made on the main actor, in the caller's world
        }
        Container.Registrations.isolated(runContext: RunContext(arguments: ["AppTests.xctest", "--demo"])) {
            #expect(Container.contextualEditor(6).name == "demo 6")
        }
    }
}
