// The delivery check's operations (what tests, and work that escapes every test, do), what a run lets a test see (who
// heard which problem, and during which step), and how schedules are drawn at random from a seed: interleaved freely
// for a run that performs one operation at a time, in phases for a run whose tests go on concurrently.

/// What a run's tests, factories, endpoints and captive pairs are: numbers, the same in the model and in Forge.
enum DeliveryUniverse {
    static let tests = 4
    /// Factories any test may override and escaping work may resolve; the last one is marked `liveInTests`.
    static let sharedFactories = 3
    /// The shared factories, then one factory of each test's own (``ownFactory(of:)``).
    static let factories = sharedFactories + tests
    static let endpoints = 3
    /// Captive pairs: a singleton whose closure resolves a factory of a cached scope.
    static let pairs = 2

    /// Whether `factory` is marked `liveInTests`: a strict test that runs its own closure is told nothing.
    static func isLiveInTests(_ factory: Int) -> Bool { factory == sharedFactories - 1 }

    /// The factory that only `test` overrides and expects escapes of, in a concurrent run: an escape of it bypasses
    /// that test's world alone, whatever the timing.
    static func ownFactory(of test: Int) -> Int { sharedFactories + test }
}

/// Where a test's code meets a problem.
enum DeliveryPath: String, Sendable, CaseIterable {
    /// The test's body, on its own task.
    case testsTask
    /// A dispatch queue the test's world was carried to, with `capture()` and `run`: off the test's task tree.
    case carriedQueue
    /// A `Task { }` the test's body started, which inherits its task tree and outlives the body.
    case leftoverTask
}

/// One step of a delivery run.
enum DeliveryOp: Equatable, Sendable, CustomStringConvertible {
    /// Test `test` starts, in a world of its own (strict or lenient), through the call ForgeTesting's trait makes.
    case start(Int, strict: Bool)
    /// The test registers an override of `factory`.
    case register(Int, factory: Int)
    /// The test's code resolves `factory`: a live closure in a strict test, unless overridden or `liveInTests`.
    case resolve(Int, factory: Int, on: DeliveryPath)
    /// The test's code calls an `unimplemented` stand-in for `endpoint`.
    case call(Int, endpoint: Int, on: DeliveryPath)
    /// The test's code resolves the singleton of captive pair `pair`: a captive dependency, when it is made.
    case captive(Int, pair: Int, on: DeliveryPath)
    /// The test runs `expectingEscapes` (the SPI beneath it) around work on a queue that resolves `factory` in the
    /// process's world, and waits for it.
    case expectEscape(Int, factory: Int)
    /// The test's body returns.
    case returns(Int)
    /// The test's leftover task ends: nothing of the test runs any more.
    case end(Int)
    /// Work on a queue, off every test's task tree and in no world, resolves `factory` (twice): an escape from every
    /// running test that overrides it.
    case escape(factory: Int)
    /// Work on a queue, in no test's world, calls the stand-in for `endpoint`.
    case callOutside(endpoint: Int)
    /// Work on a queue, in no test's world, resolves the singleton of captive pair `pair`.
    case captiveOutside(pair: Int)
    /// In a concurrent run, every test and the escaping work wait here for one another.
    case barrier

    /// The test whose code runs the operation; `nil` for escaping work and barriers.
    var test: Int? {
        switch self {
        case .start(let test, _), .register(let test, _), .resolve(let test, _, _), .call(let test, _, _),
            .captive(let test, _, _), .expectEscape(let test, _), .returns(let test), .end(let test):
            test
        case .escape, .callOutside, .captiveOutside, .barrier: nil
        }
    }

    var description: String {
        switch self {
        case .start(let test, let strict): ".start(\(test), strict: \(strict))"
        case .register(let test, let factory): ".register(\(test), factory: \(factory))"
        case .resolve(let test, let factory, let path): ".resolve(\(test), factory: \(factory), on: .\(path))"
        case .call(let test, let endpoint, let path): ".call(\(test), endpoint: \(endpoint), on: .\(path))"
        case .captive(let test, let pair, let path): ".captive(\(test), pair: \(pair), on: .\(path))"
        case .expectEscape(let test, let factory): ".expectEscape(\(test), factory: \(factory))"
        case .returns(let test): ".returns(\(test))"
        case .end(let test): ".end(\(test))"
        case .escape(let factory): ".escape(factory: \(factory))"
        case .callOutside(let endpoint): ".callOutside(endpoint: \(endpoint))"
        case .captiveOutside(let pair): ".captiveOutside(pair: \(pair))"
        case .barrier: ".barrier"
        }
    }
}

/// A problem as the model names it: its kind, and the factory, endpoint or captive pair it is about, by number.
struct DeliveryProblem: Hashable, Comparable, Sendable, CustomStringConvertible {
    enum Kind: String, Comparable, Sendable {
        case live, unimplemented, captive, escape
        /// An escape of a factory no running test overrides, whose closure ran live while strict tests ran.
        case escapeLive
        /// A strict test registered a factory after its live closure ran in the test's world: a late registration
        /// (stale dependents).
        case late
        /// Something Forge reported that the run's factories, endpoints and pairs do not account for.
        case unrecognized

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let kind: Kind
    let subject: Int

    var description: String { "\(kind) \(subject)" }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.kind, lhs.subject) < (rhs.kind, rhs.subject) }
}

/// What a run let a test see, from the model or from Forge. Each entry says during which step (the operation's index
/// in the run; the run's length for the clean-up after it) it happened; in a concurrent run, where only what each
/// test does is ordered, run reports and warnings are compared as sets, without steps.
struct DeliveryObservation: Equatable, CustomStringConvertible {
    struct Heard: Equatable, CustomStringConvertible {
        let problem: DeliveryProblem
        let step: Int
        var description: String { "\(problem) at \(step)" }
    }

    struct RunReport: Hashable, Comparable, CustomStringConvertible {
        let problem: DeliveryProblem
        /// The tests whose overrides the escape bypassed, which the report names.
        let candidates: [Int]
        var step: Int?
        var description: String { "\(problem) naming tests \(candidates)" + (step.map { " at \($0)" } ?? "") }
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }
    }

    struct Warning: Hashable, Comparable, CustomStringConvertible {
        let problem: DeliveryProblem
        /// Whether it says it was met after a test's body returned.
        let late: Bool
        var step: Int?
        var description: String {
            "\(problem)\(late ? " (late)" : "")" + (step.map { " at \($0)" } ?? "")
        }
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }
    }

    struct Absorbed: Equatable, Comparable, CustomStringConvertible {
        let step: Int
        let problems: [DeliveryProblem]
        var description: String { "\(problems) at \(step)" }
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.step < rhs.step }
    }

    /// What each test's handler heard, in order.
    var heard = Array(repeating: [Heard](), count: DeliveryUniverse.tests)
    /// What the run's reporter heard.
    var runReports: [RunReport] = []
    /// The warnings written to standard error.
    var warnings: [Warning] = []
    /// What each `expectingEscapes` absorbed.
    var absorbed: [Absorbed] = []

    /// The same, as a concurrent run can be compared: run reports and warnings without steps, sorted; absorptions
    /// sorted by step.
    var unordered: DeliveryObservation {
        var copy = self
        copy.runReports = runReports.map { report in
            var report = report
            report.step = nil
            return report
        }.sorted()
        copy.warnings = warnings.map { warning in
            var warning = warning
            warning.step = nil
            return warning
        }.sorted()
        copy.absorbed.sort()
        return copy
    }

    /// Where `other` differs from this, one line each.
    func differences(from other: DeliveryObservation, forge: String, model: String) -> [String] {
        var lines: [String] = []
        for test in heard.indices where heard[test] != other.heard[test] {
            lines.append("test \(test) heard: \(forge) \(heard[test]), \(model) \(other.heard[test])")
        }
        if runReports != other.runReports {
            lines.append("the run's reporter heard: \(forge) \(runReports), \(model) \(other.runReports)")
        }
        if warnings != other.warnings { lines.append("warnings: \(forge) \(warnings), \(model) \(other.warnings)") }
        if absorbed != other.absorbed { lines.append("absorbed: \(forge) \(absorbed), \(model) \(other.absorbed)") }
        return lines
    }

    var description: String {
        "heard \(heard), run reports \(runReports), warnings \(warnings), absorbed \(absorbed)"
    }
}

// MARK: Random schedules

extension DeliveryOp {
    /// A random schedule of about `count` operations, for a run that performs one at a time: any operation the model
    /// can run at its point, interleaved freely.
    static func randomSchedule(count: Int, using generator: inout SplitMix64) -> [DeliveryOp] {
        var model = DeliveryModel()
        var ops: [DeliveryOp] = []
        while ops.count < count {
            var op = randomOp(using: &generator)
            // Half the time, a test expects escapes of a factory it overrides: then there is one to absorb.
            if case .expectEscape(let test, _) = op, Bool.random(using: &generator),
                let factory = model.tests[test].overrides.sorted().randomElement(using: &generator)
            {
                op = .expectEscape(test, factory: factory)
            }
            guard model.canRun(op) else { continue }
            model.apply(op, step: ops.count)
            ops.append(op)
        }
        return ops
    }

    private static func randomOp(using generator: inout SplitMix64) -> DeliveryOp {
        let test = Int.random(in: 0..<DeliveryUniverse.tests, using: &generator)
        let factory = Int.random(in: 0..<DeliveryUniverse.factories, using: &generator)
        let endpoint = Int.random(in: 0..<DeliveryUniverse.endpoints, using: &generator)
        let pair = Int.random(in: 0..<DeliveryUniverse.pairs, using: &generator)
        let path = DeliveryPath.allCases.randomElement(using: &generator)!
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<10: return .start(test, strict: Bool.random(using: &generator))
        case 10..<24: return .register(test, factory: factory)
        case 24..<42: return .resolve(test, factory: factory, on: path)
        case 42..<54: return .call(test, endpoint: endpoint, on: path)
        case 54..<62: return .captive(test, pair: pair, on: path)
        case 62..<68: return .expectEscape(test, factory: factory)
        case 68..<77: return .escape(factory: factory)
        case 77..<80: return .callOutside(endpoint: endpoint)
        case 80..<82: return .captiveOutside(pair: pair)
        case 82..<93: return .returns(test)
        default: return .end(test)
        }
    }

    /// A random schedule for a run whose tests go on concurrently, each running its own operations in order, with
    /// escaping work beside them. Its outcome does not depend on how they interleave: in phases, between barriers,
    ///
    /// 1. the tests start and register their overrides;
    /// 2. the tests meet problems in their worlds, on every path, while escaping work resolves shared factories and
    ///    meets problems in no test's world (so that an escape's candidates are the tests that registered);
    /// 3. each test may expect escapes of its own factory, which only it overrides (so that it absorbs its own alone),
    ///    or which is marked liveInTests (so that it absorbs none);
    /// 4. the tests return, then meet problems from their leftover tasks and carried queues, and end;
    /// 5. escaping work resolves shared factories again, which no test watches for any more.
    static func randomConcurrentSchedule(using generator: inout SplitMix64) -> [DeliveryOp] {
        let tests = 0..<DeliveryUniverse.tests
        var setUp: [DeliveryOp] = []
        var work: [DeliveryOp] = []
        var expectations: [DeliveryOp] = []
        var after: [DeliveryOp] = []
        let shared = 0..<DeliveryUniverse.sharedFactories
        for test in tests {
            setUp.append(.start(test, strict: Bool.random(using: &generator)))
            for factory in shared where Bool.random(using: &generator) {
                setUp.append(.register(test, factory: factory))
            }
            let own = DeliveryUniverse.ownFactory(of: test)
            let overridesOwn = Bool.random(using: &generator)
            if overridesOwn { setUp.append(.register(test, factory: own)) }
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                work.append(problemOp(of: test, paths: DeliveryPath.allCases, using: &generator))
            }
            // Not of its own factory's live closure, which every strict test running would absorb.
            if (overridesOwn || DeliveryUniverse.isLiveInTests(own)) && Bool.random(using: &generator) {
                expectations.append(.expectEscape(test, factory: own))
            }
            after.append(.returns(test))
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                after.append(problemOp(of: test, paths: [.leftoverTask, .carriedQueue], using: &generator))
            }
            if Bool.random(using: &generator) { after.append(.end(test)) }
        }
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
            let escaping: DeliveryOp =
                switch Int.random(in: 0..<6, using: &generator) {
                case 0..<4: .escape(factory: shared.randomElement(using: &generator)!)
                case 4: .callOutside(endpoint: Int.random(in: 0..<DeliveryUniverse.endpoints, using: &generator))
                default: .captiveOutside(pair: Int.random(in: 0..<DeliveryUniverse.pairs, using: &generator))
                }
            work.append(escaping)
        }
        let late = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
            DeliveryOp.escape(factory: shared.randomElement(using: &generator)!)
        }
        // The order within a phase is how the model reads it; Forge runs each test's operations in it concurrently.
        work.shuffle(using: &generator)
        return setUp + [.barrier] + work + [.barrier] + expectations + [.barrier] + after + [.barrier] + late
    }

    /// A test's operation that meets a problem in its world, on one of `paths`.
    private static func problemOp(of test: Int, paths: [DeliveryPath], using generator: inout SplitMix64)
        -> DeliveryOp
    {
        let path = paths.randomElement(using: &generator)!
        return switch Int.random(in: 0..<3, using: &generator) {
        case 0: .resolve(test, factory: Int.random(in: 0..<DeliveryUniverse.factories, using: &generator), on: path)
        case 1: .call(test, endpoint: Int.random(in: 0..<DeliveryUniverse.endpoints, using: &generator), on: path)
        default: .captive(test, pair: Int.random(in: 0..<DeliveryUniverse.pairs, using: &generator), on: path)
        }
    }
}
