// How problems reach tests, against the delivery model, over random schedules: which test hears which problem and
// when (at once, or when its body returns), what the run's reporter hears, which warnings are written, what
// expectingEscapes absorbs. Each check runs in a process of its own: the run's reporter, the policies and "once for the
// run" are the process's, and no run-level problem may reach this suite.
//
//   swift test --filter DeliveryModelTests                                   # CI's budget
//   FORGE_MODEL_SECONDS=600 swift test --filter DeliveryModelTests           # ten minutes each
//   FORGE_MODEL_SEED=1234 swift test --filter DeliveryModelTests             # one seed again
//
// A disagreement is shrunk to a shortest schedule and printed as a test to paste at the end of this file.
import Foundation
import Testing

@Suite struct DeliveryModelTests {
    @Test("Random schedules, one operation at a time: every problem reaches whom the model says, when it says")
    func oneOperationAtATime() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await DeliveryCheck.randomRuns(concurrent: false)
        }
        DeliveryCheck.show(result)
    }

    @Test(
        "Random schedules, tests running concurrently: every problem reaches whom the model says, whatever the timing")
    func testsRunningConcurrently() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await DeliveryCheck.randomRuns(concurrent: true)
        }
        DeliveryCheck.show(result)
    }
}

/// Random delivery runs, in the process of an exit test.
enum DeliveryCheck {
    /// Runs random schedules until the budget is spent, or Forge and the model disagree: then writes the
    /// disagreement, shrunk, with a test to paste, to standard error, for the parent to record.
    static func randomRuns(concurrent: Bool) async {
        DeliveryRun.prepareProcess()
        let name = concurrent ? "Delivery model, concurrent" : "Delivery model, one operation at a time"
        // Each run costs a few hundred microseconds a step, and several times that under a sanitizer.
        let budget = ModelBudget.fromEnvironment(operations: concurrent ? 4_000 : 8_000, secondsUnderASanitizer: 3)
        let failure = await awaitingAThread {
            budget.spend(name: name, held: "no disagreement; \(DeliveryCoverage.take())", log: writeToStandardError) {
                seed, index in
                var generator = SplitMix64(seed: seed)
                let ops =
                    concurrent
                    ? DeliveryOp.randomConcurrentSchedule(using: &generator)
                    : DeliveryOp.randomSchedule(count: Int.random(in: 5...60, using: &generator), using: &generator)
                let run = DeliveryRun(concurrent: concurrent, ops: ops)
                guard let disagreement = run.check() else { return (ops.count, nil) }
                let shrunk = disagreement.isIncomplete ? run : run.shrunk()
                return (
                    ops.count,
                    """
                    Forge and the delivery model disagree (seed \(budget.seed), run \(index)):
                    \(disagreement)
                    Shrunk to \(shrunk.ops.count) operations, which disagree on:
                    \(shrunk.check().map { "\($0)" } ?? "nothing, run again")
                    As a test:
                    \(shrunk.asTest)

                    """
                )
            }
        }
        // The process exits normally: a failed exit test gives its parent no output to show.
        if let failure { writeToStandardError(failure) }
    }

    /// Prints the child's log lines; records what it wrote as an issue when it found a disagreement.
    static func show(_ result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation) {
        let output = standardError(result)
        for line in output.split(separator: "\n") where line.hasPrefix("Delivery model") { print(line) }
        if output.contains("Forge and the delivery model disagree") {
            Issue.record(Comment(rawValue: output), sourceLocation: sourceLocation)
        }
    }

    private static func writeToStandardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
