// Contexts: .onArg, .onPreview, .onTest and .onDebug, checked against an injected RunContext, never by changing
// the test process.
import Forge
import Testing

extension Container {
    fileprivate static let contextual = Factory { "own" }
        .onDebug { "debug" }
        .onTest { "test" }
        .onPreview { "preview" }
        .onArg("--offline") { "offline" }
        .onArg("--staging") { "staging" }
    fileprivate static let replaced = Factory { "own" }.onTest { "first" }.onTest { "second" }
    fileprivate static let cachedContextual = Factory(scope: .cached) { Tracked(id: 0) }.onDebug { Tracked(id: 1) }
    fileprivate static let numberedContextual = ParameterFactory<Int, Int> { $0 }.onArg("--negate") { -$0 }
}

private typealias RunContext = SharedContainer.RunContext

private func resolved(in context: RunContext) -> String {
    Container.Registrations.isolated(runContext: context) { Container.contextual() }
}

@Suite struct ContextsTests {
    @Test("Precedence: a registration, a launch argument, a preview, a test run, a debug build, the own closure")
    func precedence() {
        let preview = ["XCODE_RUNNING_FOR_PREVIEWS": "1"]
        #expect(resolved(in: RunContext(arguments: ["App"])) == "own")
        #expect(resolved(in: RunContext(arguments: ["App"], isDebugBuild: true)) == "debug")
        #expect(resolved(in: RunContext(arguments: ["AppTests.xctest"], isDebugBuild: true)) == "test")
        #expect(resolved(in: RunContext(arguments: ["App"], environment: ["XCTestBundlePath": "/x"])) == "test")
        #expect(
            resolved(in: RunContext(arguments: ["AppTests.xctest"], environment: preview, isDebugBuild: true))
                == "preview")
        #expect(
            resolved(in: RunContext(arguments: ["App", "--offline"], environment: preview, isDebugBuild: true))
                == "offline")
        #expect(resolved(in: RunContext(arguments: ["App", "--staging", "--offline"])) == "offline")
        #expect(resolved(in: RunContext(arguments: ["App", "--staging"])) == "staging")
        #expect(resolved(in: RunContext(arguments: ["--offline"])) == "own")  // the program's own path is no argument
        Container.Registrations.isolated(runContext: RunContext(arguments: ["App", "--offline"])) {
            Container.contextual.register { "registered" }
            #expect(Container.contextual() == "registered")
            Container.contextual.reset()
            #expect(Container.contextual() == "offline")
        }
    }

    @Test func aLaterContextReplacesOneWithTheSameCondition() {
        Container.Registrations.isolated(runContext: RunContext(arguments: ["Tests.xctest"])) {
            #expect(Container.replaced() == "second")
        }
    }

    @Test func parameterFactoriesAndScopesToo() {
        Container.Registrations.isolated(runContext: RunContext(arguments: ["App", "--negate"], isDebugBuild: true)) {
            #expect(Container.numberedContextual(3) == -3)
            #expect(Container.cachedContextual().id == 1)
            #expect(Container.cachedContextual() === Container.cachedContextual())
        }
    }

    @Test("A nested world inherits its enclosing world's run context")
    func nestedWorldsInherit() {
        Container.Registrations.isolated(runContext: RunContext(arguments: ["App", "--offline"])) {
            #expect(Container.Registrations.isolated { Container.contextual() } == "offline")
        }
    }

    @Test("This test process is a test run, and its world says so")
    func theProcessIsATestRun() {
        #expect(RunContext.process.isTest)
        #expect(!RunContext.process.isPreview)
        Container.Registrations.isolated {
            #expect(Container.contextual() == "test")
        }
    }
}
