// Forge against its model, over random runs: every observable after every step must agree.
//
//   swift test --filter ModelCheckTests                                   # CI's budget
//   FORGE_MODEL_SECONDS=3600 swift test --filter ModelCheckTests          # an hour, before a release
//   FORGE_MODEL_SEED=1234 swift test --filter ModelCheckTests             # one seed again
//
// A disagreement is shrunk to a shortest run and printed as a test to paste at the end of this file.
import Foundation
import Testing

@Suite(.serialized) struct ModelCheckTests {
    @Test("Random runs: Forge and the model agree on every step")
    func randomRunsAgree() async throws {
        // On a thread of its own: a long run must not hold one of the threads other tests' tasks share.
        let failure = await awaitingAThread {
            ModelCheck.randomRuns(ModelBudget.fromEnvironment(operations: 1_000_000))
        }
        if let failure { Issue.record(Comment(rawValue: failure)) }
    }

    @Test("Random runs in the process's world, in a process of its own: Forge and the model agree on every step")
    func randomRunsInTheProcessWorldAgree() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let failure = ModelCheck.randomRuns(
                ModelBudget.fromEnvironment(operations: 300_000), inProcessWorld: true,
                log: { line in
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                })
            if let failure {
                FileHandle.standardError.write(Data(failure.utf8))
                exit(1)
            }
        }
        let output = standardError(result)
        for line in output.split(separator: "\n") where line.hasPrefix("Model check") { print(line) }
        if output.contains("Forge and the model disagree") { Issue.record(Comment(rawValue: output)) }
    }
}

/// Random runs against the model, until a budget is spent.
enum ModelCheck {
    /// Runs random runs, each from a seed `budget`'s seed gives, until `budget` is spent or Forge and the model
    /// disagree; returns the disagreement, shrunk, as a message with a test to paste; `nil` when they agreed.
    static func randomRuns(
        _ budget: ModelBudget, inProcessWorld: Bool = false, log: (String) -> Void = { print($0) }
    ) -> String? {
        let world = inProcessWorld ? " in the process's world" : ""
        return budget.spend(name: "Model check\(world)", held: "no disagreement", log: log) { seed, index in
            var generator = SplitMix64(seed: seed)
            let context = ModelRunContext.random(using: &generator)
            let ops = Op.randomRun(count: Int.random(in: 20...300, using: &generator), using: &generator)
            let run = ModelRun(context: context, ops: ops, inProcessWorld: inProcessWorld)
            guard let disagreement = run.check() else { return (ops.count, nil) }
            let shrunk = run.shrunk()
            let first = shrunk.check().map { "\($0)" } ?? "none after shrinking"
            return (
                ops.count,
                """
                Forge and the model disagree\(world) (seed \(budget.seed), run \(index)): \(disagreement)
                Shrunk to \(shrunk.ops.count) operations, first disagreement: \(first)
                As a test:
                \(shrunk.asTest)
                """
            )
        }
    }
}

/// How long a model check runs: a number of operations, or with FORGE_MODEL_SECONDS, a time; the seed from
/// FORGE_MODEL_SEED, or a new one.
struct ModelBudget {
    let operations: Int?
    let seconds: Double?
    let seed: UInt64

    static func fromEnvironment(operations: Int, secondsUnderASanitizer: Double = 15) -> ModelBudget {
        let environment = ProcessInfo.processInfo.environment
        // Under a sanitizer, which slows every operation several times, CI's budget is a time.
        let seconds =
            environment["FORGE_MODEL_SECONDS"].flatMap(Double.init) ?? (underASanitizer ? secondsUnderASanitizer : nil)
        let seed = environment["FORGE_MODEL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64(UInt32.max))
        return ModelBudget(operations: seconds == nil ? operations : nil, seconds: seconds, seed: seed)
    }

    /// Calls `run` with a seed drawn from this budget's seed and its index, until the operations it counts (or the
    /// time) are spent, or it returns a failure, which this returns; logs the seed first, and at the end how many
    /// operations ran, how fast, and `held` (an autoclosure, read at the end).
    func spend(
        name: String, held: @autoclosure () -> String, log: (String) -> Void = { print($0) },
        _ run: (_ seed: UInt64, _ index: Int) -> (operations: Int, failure: String?)
    ) -> String? {
        var seeds = SplitMix64(seed: seed)
        log("\(name): seed \(seed) (FORGE_MODEL_SEED=\(seed) runs it again)")
        let started = ContinuousClock.now
        var operations = 0
        var runs = 0
        while !isSpent(operations: operations, since: started) {
            let (done, failure) = run(seeds.next(), runs)
            if let failure { return failure }
            operations += done
            runs += 1
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let rate = Int(Double(operations) / seconds)
        log("\(name): \(operations) operations in \(runs) runs, \(rate) per second, \(held())")
        return nil
    }

    func isSpent(operations done: Int, since started: ContinuousClock.Instant) -> Bool {
        if let operations { return done >= operations }
        return ContinuousClock.now - started >= .milliseconds(Int((seconds ?? 0) * 1000))
    }
}

extension ModelCheckTests {
    @Test("Concurrent runs: what must hold under every interleaving holds")
    func concurrentRunsHold() async throws {
        // On a thread of its own, as above.
        let failure = await awaitingAThread { Self.concurrentRuns(ModelBudget.fromEnvironment(operations: 100_000)) }
        if let failure { Issue.record(Comment(rawValue: failure)) }
    }

    /// Concurrent runs until `budget` is spent, or one breaks what must hold, which it returns.
    static func concurrentRuns(_ budget: ModelBudget) -> String? {
        budget.spend(
            name: "Model check, concurrent",
            held: {
                let overlap = ConcurrentModelRun.overlap.value
                return
                    "every invariant held; \(overlap.overlapping) of \(overlap.resolutions) resolutions overlapped a "
                    + "change"
            }()
        ) { seed, index in
            let run = ConcurrentModelRun(
                seed: seed, worlds: 2, changesPerWorld: 120, resolutionsPerReader: 150, readerThreads: 2)
            let failures = run.check()
            guard !failures.isEmpty else { return (run.operations, nil) }
            return (
                run.operations,
                """
                A concurrent run broke what must hold (seed \(budget.seed), run \(index), ConcurrentModelRun seed \
                \(seed)):
                \(failures.prefix(20).joined(separator: "\n"))
                """
            )
        }
    }
}

/// Whether the thread or the address sanitizer instruments this process: its runtime's entry point is linked in.
private let underASanitizer =
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

extension ModelCheckTests {
    @Test("Small concurrent histories are linearizable against the model")
    func smallHistoriesAreLinearizable() async {
        let failure = await awaitingAThread { Self.smallHistories(ModelBudget.fromEnvironment(operations: 30_000)) }
        if let failure { Issue.record(Comment(rawValue: failure)) }
    }

    /// Small histories until `budget` (in operations) is spent, or one is not linearizable, which it describes.
    static func smallHistories(_ budget: ModelBudget) -> String? {
        budget.spend(name: "Model check, linearizability", held: "each history linearizable") { seed, _ in
            let history = SmallHistory.record(seed: seed)
            let operations = history.threads.map(\.count).reduce(0, +)
            guard !history.isLinearizable else { return (operations, nil) }
            let threads = history.threads.enumerated().map { thread, events in
                "thread \(thread): "
                    + events.map { "\($0.op) [\($0.start)-\($0.end)] -> \($0.result)" }.joined(separator: "; ")
            }
            return (
                operations,
                """
                A small history is not linearizable (seed \(budget.seed), SmallHistory seed \(seed), context \
                \(history.context)):
                \(threads.joined(separator: "\n"))
                """
            )
        }
    }
}
