// Runs operations on Forge and on the model in step, and compares what each step lets a test observe; shrinks a run
// on which they disagree to a shortest one, printed as a test to paste.
@_spi(ForgeTesting) import Forge

/// Where Forge and the model first disagreed in a run.
struct Disagreement: Error, CustomStringConvertible {
    let step: Int
    let op: String
    let forge: String
    let model: String

    var description: String { "step \(step), \(op): Forge saw \(forge), the model \(model)" }
}

/// One run: a root world in `context` (or with `inProcessWorld`, the process's world), then `ops`, Forge and the
/// model in step.
struct ModelRun {
    let context: ModelRunContext
    let ops: [Op]
    var inProcessWorld = false

    /// Runs it; returns the first disagreement, if any.
    func check() -> Disagreement? {
        inProcessWorld ? checkInProcessWorld() : checkInIsolatedWorld()
    }

    /// Runs it in the process's world, which it resets first and last: only a process of its own may.
    private func checkInProcessWorld() -> Disagreement? {
        Container.Registrations.reset()
        Container.Scope.reset(includingSingletons: true)
        Recorder.start()
        var model = Model(processWorld: ())
        var runner = ForgeSide()
        var index = 0
        if let disagreement = runner.run(ops, from: &index, depth: 0, model: &model) {
            runner.held = []
            Container.Registrations.reset()
            Container.Scope.reset(includingSingletons: true)
            return disagreement
        }
        runner.held = []
        // Back to the baseline, with nothing kept: what the run kept is disposed of.
        Container.Registrations.reset()
        Container.Scope.reset(includingSingletons: true)
        let ended = ForgeSide.observe(.nothing, withEmptiness: false)
        let expected = model.end()
        if ended != expected {
            return Disagreement(step: ops.count, op: "the reset after the run", forge: "\(ended)", model: "\(expected)")
        }
        return nil
    }

    private func checkInIsolatedWorld() -> Disagreement? {
        Recorder.start()
        var model = Model(context: context)
        var runner = ForgeSide()
        var index = 0
        let problems = Locked<[ResolutionError]>([])
        var disagreement: Disagreement?
        // The model leaves out stale dependents, which registering after resolving makes (StaleDependentsTests).
        let collect: @Sendable (ResolutionError) -> Void = { problem in
            if problem.kind != .staleDependents { problems.mutate { $0.append(problem) } }
        }
        Container.Registrations.isolated(named: "model check", fileID: #fileID, line: #line, reportingProblems: collect)
        {
            Container.Registrations.isolated(runContext: context.forge) {
                disagreement = runner.run(ops, from: &index, depth: 0, model: &model)
            }
        }
        if let disagreement { return disagreement }
        // The root world ended: what it kept was disposed of.
        let ended = ForgeSide.observe(.nothing, withEmptiness: false)
        let expected = model.end()
        if ended != expected {
            return Disagreement(step: ops.count, op: "the end of the run", forge: "\(ended)", model: "\(expected)")
        }
        if !problems.value.isEmpty {
            return Disagreement(step: ops.count, op: "the run", forge: "problems \(problems.value)", model: "none")
        }
        return nil
    }

    /// The shortest run found, by removing operations, on which Forge and the model still disagree.
    func shrunk() -> ModelRun {
        let ops = ops.shrunk { ModelRun(context: context, ops: $0, inProcessWorld: inProcessWorld).check() != nil }
        return ModelRun(context: context, ops: ops, inProcessWorld: inProcessWorld)
    }

    /// The run as a Swift test to paste into ModelCheckTests.swift.
    var asTest: String {
        let lines = ops.map { "        \($0)," }.joined(separator: "\n")
        let run = """
            let run = ModelRun(
                context: \(context),
                ops: [
            \(lines)
                ], inProcessWorld: \(inProcessWorld))
            """
        // In the serialized suite: the model's factories record into one recorder.
        guard inProcessWorld else {
            return """
                extension ModelCheckTests {
                    @Test func modelRegression() {
                \(indented(run, by: 8))
                        #expect(run.check() == nil)
                    }
                }
                """
        }
        return """
            extension ModelCheckTests {
                @Test func modelRegression() async {
                    await #expect(processExitsWith: .success) {  // the process's world: in a process of its own
            \(indented(run, by: 12))
                        if let disagreement = run.check() { preconditionFailure("\\(disagreement)") }
                    }
                }
            }
            """
    }

    private func indented(_ text: String, by spaces: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { String(repeating: " ", count: spaces) + $0 }
            .joined(separator: "\n")
    }
}

extension Disagreement: Equatable {}

extension ModelRunContext {
    /// The run context a Forge world gets for it, on the model's clock.
    var forge: SharedContainer.RunContext {
        SharedContainer.RunContext(
            arguments: hasArgument ? ["model", "--model"] : ["model"],
            environment: (isTest ? ["XCTestBundlePath": "/model.xctest"] : [:])
                .merging(isPreview ? ["XCODE_RUNNING_FOR_PREVIEWS": "1"] : [:]) { first, _ in first },
            isDebugBuild: isDebugBuild,
            now: { Recorder.clock.value })
    }
}

/// Forge's side of a run: what the test holds, and the operations on the real factories.
struct ForgeSide {
    var held: [ModelInstance] = []
    /// What a registration's maker starts with, before its number: "r" in a run, "w<world>r" in a concurrent one.
    var registrationPrefix = "r"

    /// Runs `ops` from `index` in the current world, comparing each step with `model`, until the run ends or a
    /// `leaveWorld` that ``Model/plan(_:)`` lets run returns to the enclosing world.
    mutating func run(_ ops: [Op], from index: inout Int, depth: Int, model: inout Model) -> Disagreement? {
        while index < ops.count {
            let step = index
            let original = ops[index]
            index += 1
            guard let op = model.plan(original) else { continue }
            let observed: Observed
            switch op {
            case .enterWorld(let context):
                let expected = model.apply(op)
                var inner: Disagreement?
                let run = {
                    // What the new world says, seen from inside it.
                    let entered = Self.observe(.nothing)
                    if entered != expected {
                        inner = Disagreement(step, op, entered, expected)
                        return
                    }
                    inner = self.run(ops, from: &index, depth: depth + 1, model: &model)
                }
                if let context {
                    Container.Registrations.isolated(runContext: context.forge, run)
                } else {
                    Container.Registrations.isolated(run)
                }
                if let inner { return inner }
                // The world ended: its instances were disposed of, as the model's leaveWorld says.
                observed = Self.observe(.nothing)
                let left = model.apply(.leaveWorld)
                if observed != left { return Disagreement(step, .leaveWorld, observed, left) }
                continue
            case .leaveWorld:
                return nil
            default:
                observed = Self.observe(perform(op))
            }
            let expected = model.apply(op)
            if observed != expected { return Disagreement(step, op, observed, expected) }
        }
        return nil
    }

    /// What the step's own operation returned, with the hooks it called; `withEmptiness`, what the current world's
    /// scopes and registrations say after it.
    static func observe(_ value: Observed.Value, withEmptiness: Bool = true) -> Observed {
        let hooks = Recorder.takeHooks()
        let emptiness =
            withEmptiness
            ? ModelScope.allCases.map(\.scope.isEmpty) + [Container.Registrations.isEmpty] : []
        return Observed(
            value: value, afterMade: hooks.afterMade, disposed: hooks.disposed.sorted(), emptiness: emptiness)
    }

    /// Runs `op` on Forge in the current world: any but entering and leaving a world.
    mutating func perform(_ op: Op) -> Observed.Value {
        switch op {
        case .resolve(let factory, let parameter):
            return .instance(ModelFactory.all[factory].resolveWith(parameter).observed)
        case .tryResolve(let factory):
            switch ModelFactory.all[factory].tryResolve() {
            case .success(let made): return .instance(made.observed)
            case .failure(let error) where error.kind == .promiseNotFulfilled: return .promiseNotFulfilled
            case .failure(let error): return .otherError("\(error.kind)")
            }
        case .hold(let factory):
            let made = ModelFactory.all[factory].resolve()
            held.append(made)
            return .instance(made.observed)
        case .dropHeld:
            held = []
        case .register(let factory, let number):
            ModelFactory.all[factory].register("\(registrationPrefix)\(number)")
        case .reset(let factory, let option):
            ModelFactory.all[factory].reset(option.forge)
        case .push: Container.Registrations.push()
        case .pop: Container.Registrations.pop()
        case .resetRegistrations: Container.Registrations.reset()
        case .registrationsAreEmpty: return .bool(Container.Registrations.isEmpty)
        case .resetScope(let scope): scope.scope.reset()
        case .resetAllScopes(let includingSingletons):
            Container.Scope.reset(includingSingletons: includingSingletons)
        case .resetScopesButSingletons:
            Container.Scope.reset()
        case .scopeIsEmpty(let scope): return .bool(scope.scope.isEmpty)
        case .contribute(let number, let scope):
            let factory = Model.contributionFactory(number)
            Container.mList.contribute(scope: scope.scope) { Recorder.make(factory, "k\(number)") }
        case .resolveList: return .instances(Container.mList().map(\.observed))
        case .resetList: Container.mList.reset()
        case .advanceClock(let seconds): Recorder.clock.mutate { $0 += seconds }
        case .enterWorld, .leaveWorld: preconditionFailure("run(_:from:depth:model:) enters and leaves worlds")
        }
        return .nothing
    }
}

extension Disagreement {
    fileprivate init(_ step: Int, _ op: Op, _ forge: Observed, _ model: Observed) {
        self.init(step: step, op: "\(op)", forge: "\(forge)", model: "\(model)")
    }
}
