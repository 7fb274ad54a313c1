// Forge against its model, over random runs: every observable after every step must agree.
//
//   swift test --filter ModelCheckTests                                   # CI's budget
//   FORGE_MODEL_SECONDS=3600 swift test --filter ModelCheckTests          # an hour, before a release
//   FORGE_MODEL_SEED=1234 swift test --filter ModelCheckTests             # one seed again
//
// A disagreement is shrunk to a shortest run and printed as a test to paste below.
import Foundation
import Testing

@Suite(.serialized) struct ModelCheckTests {
    @Test("Random runs: Forge and the model agree on every step")
    func randomRunsAgree() throws {
        let budget = ModelBudget.fromEnvironment(operations: 1_000_000)
        var seeds = SplitMix64(seed: budget.seed)
        print("Model check: seed \(budget.seed) (FORGE_MODEL_SEED=\(budget.seed) runs it again)")
        let started = ContinuousClock.now
        var operations = 0
        var runs = 0
        while !budget.isSpent(operations: operations, since: started) {
            var generator = SplitMix64(seed: seeds.next())
            let context = ModelRunContext(
                hasArgument: Bool.random(using: &generator), isTest: Bool.random(using: &generator),
                isDebugBuild: Bool.random(using: &generator))
            let run = ModelRun(
                context: context,
                ops: Op.randomRun(count: Int.random(in: 20...300, using: &generator), using: &generator))
            if let disagreement = run.check() {
                let shrunk = run.shrunk()
                let first = shrunk.check().map { "\($0)" } ?? "none after shrinking"
                Issue.record(
                    """
                    Forge and the model disagree (seed \(budget.seed), run \(runs)): \(disagreement)
                    Shrunk to \(shrunk.ops.count) operations, first disagreement: \(first)
                    As a test:
                    \(shrunk.asTest)
                    """)
                return
            }
            operations += run.ops.count
            runs += 1
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        print(
            "Model check: \(operations) operations in \(runs) runs, \(Int(Double(operations) / seconds)) per second, "
                + "no disagreement")
    }
}

/// How long a model check runs: a number of operations, or with FORGE_MODEL_SECONDS, a time; the seed from
/// FORGE_MODEL_SEED, or a new one.
struct ModelBudget {
    let operations: Int?
    let seconds: Double?
    let seed: UInt64

    static func fromEnvironment(operations: Int) -> ModelBudget {
        let environment = ProcessInfo.processInfo.environment
        // Under a sanitizer, which slows every operation several times, CI's budget is a time.
        let seconds = environment["FORGE_MODEL_SECONDS"].flatMap(Double.init) ?? (underASanitizer ? 15 : nil)
        let seed = environment["FORGE_MODEL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64(UInt32.max))
        return ModelBudget(operations: seconds == nil ? operations : nil, seconds: seconds, seed: seed)
    }

    func isSpent(operations done: Int, since started: ContinuousClock.Instant) -> Bool {
        if let operations { return done >= operations }
        return ContinuousClock.now - started >= .milliseconds(Int((seconds ?? 0) * 1000))
    }
}

extension ModelCheckTests {
    @Test("Concurrent runs: what must hold under every interleaving holds")
    func concurrentRunsHold() throws {
        let budget = ModelBudget.fromEnvironment(operations: 100_000)
        var seeds = SplitMix64(seed: budget.seed)
        print("Model check, concurrent: seed \(budget.seed) (FORGE_MODEL_SEED=\(budget.seed) runs it again)")
        let started = ContinuousClock.now
        var operations = 0
        var runs = 0
        while !budget.isSpent(operations: operations, since: started) {
            let run = ConcurrentModelRun(
                seed: seeds.next(), worlds: 2, changesPerWorld: 40, resolutionsPerReader: 150, readerThreads: 2)
            let failures = run.check()
            if !failures.isEmpty {
                Issue.record(
                    """
                    A concurrent run broke what must hold (seed \(budget.seed), run \(runs), \
                    ConcurrentModelRun seed \(run.seed)):
                    \(failures.prefix(20).joined(separator: "\n"))
                    """)
                return
            }
            operations += run.operations
            runs += 1
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        print(
            "Model check, concurrent: \(operations) operations in \(runs) runs, "
                + "\(Int(Double(operations) / seconds)) per second, every invariant held")
    }
}

/// Whether the thread or the address sanitizer instruments this process: its runtime's entry point is linked in.
private let underASanitizer =
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
