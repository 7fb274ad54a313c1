// Escaped work's live closures: work off every test's task tree that runs, in the process's world, a live closure no
// test overrode while strict tests run is one warning for the run, naming the factory and every strict test.
// Every strict test that runs is a candidate, so each case runs in a child process (an exit test), where the strict
// tests it starts are the only ones: in this process, any strict suite running in parallel would be one too.
import Dispatch
import Testing

@_spi(ForgeTesting) @testable import Forge

private final class LiveService: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

extension Container {
    /// Overridden by no test: its own closure is live.
    fileprivate static let liveUntouched = Factory { LiveService("live") }
    /// Resolves ``liveUntouched`` in its closure: a composer, not reported itself, which the leaf's message names.
    fileprivate static let liveReaching = Factory { LiveService("reaching \(liveUntouched().name)") }
    fileprivate static let liveSafe = Factory { LiveService("safe") }.liveInTests
}

/// What the strict tests of a case heard: their own problems, and what one of them recorded for the run.
private struct Heard: Sendable {
    let problems = Locked<[ResolutionError]>([])
    let forTheRun = Locked<[ResolutionError]>([])
}

/// Runs `body` as a strict test named `name` would run under the trait: in a strict world of its own, on a task tree
/// ForgeTesting would call a test's (``TestsTask``), with what it hears going to `heard`.
private func strictTest(_ name: String, _ heard: Heard, _ body: () async -> Void) async {
    await TestsTask.$marked.withValue(true) {
        await Container.Registrations.isolated(
            named: name, fileID: #fileID, line: #line, strict: true,
            reportingProblems: { problem in heard.problems.mutate { $0.append(problem) } },
            reportingForTheRun: { problem in heard.forTheRun.mutate { $0.append(problem) } }, body)
    }
}

/// What ForgeTesting's trait tells Forge, with ``TestsTask`` standing for Swift Testing's current test: the child of
/// an exit test runs no trait.
private func tellForgeWhatATestIs() {
    Container.Diagnostics.recognizeTestTasks { TestsTask.marked }
}

@Suite(.enabled(if: Container.Diagnostics.escapedResolutions == .warn, "release builds look for none by default"))
struct EscapedLiveClosuresTests {
    @Test("Work a strict test started off its task tree runs a live closure: one warning for the run, naming them all")
    func oneWarningForTheRun() async {
        await #expect(processExitsWith: .success) {
            tellForgeWhatATestIs()
            let heard = Heard()
            let running = Occurrences("the bystander runs")
            let escaped = Occurrences("the escaping work resolved")
            async let bystander: Void = strictTest("bystander", heard) {
                running.signal()
                let resolved = await escaped.happened(within: 60)
                precondition(resolved, "the escaping work did not resolve")
            }
            await strictTest("starter", heard) {
                let started = await running.happened(within: 60)
                precondition(started, "the bystander did not start")
                // Reached twice, from a detached task and from a thread, through another factory and directly.
                let detached = await Task.detached { Container.liveReaching().name }.value
                let threaded = onAThread { Container.liveUntouched().name }
                precondition(detached == "reaching live" && threaded == "live", "\(detached), \(threaded ?? "nil")")
                escaped.signal()
            }
            await bystander
            precondition(heard.problems.value.isEmpty, "a test heard it as its own: \(heard.problems.value)")
            // Once: the leaf, reached first through the composer, which is not reported.
            let recorded = heard.forTheRun.value
            precondition(recorded.count == 1, "recorded \(recorded.count) times for the run: \(recorded)")
            precondition(recorded[0].factory == Container.liveUntouched.box.displayName, "\(recorded)")
            let message = recorded[0].description
            precondition(recorded[0].kind == .escapedResolution, message)
            precondition(message.contains("Factory<LiveService> (ForgeTests/EscapedLiveClosuresTests.swift:"), message)
            precondition(message.contains("ran its own closure in the process's world"), message)
            precondition(message.contains("\"bystander\"") && message.contains("\"starter\""), message)
            precondition(message.contains("Forge cannot tell which test started it"), message)
            #if DEBUG
                // Debug builds record chains (cycle detection is on): the first run came through `reaching`.
                precondition(message.contains("It was resolved through:"), message)
            #endif
        }
    }

    @Test("Without a candidate that can record it (XCTest's), it is one warning on standard error")
    func oneWarningOnStandardError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            tellForgeWhatATestIs()
            let ignore: @Sendable (ResolutionError) -> Void = { _ in }
            await TestsTask.$marked.withValue(true) {
                await Container.Registrations.isolated(
                    named: "an XCTest", fileID: #fileID, line: #line, strict: true, reportingProblems: ignore
                ) {
                    _ = await Task.detached { Container.liveUntouched() }.value
                    _ = await Task.detached { Container.liveUntouched() }.value
                }
            }
        }
        let text = standardError(result)
        #expect(text.components(separatedBy: "Forge warning: escaped resolution.").count == 2, "\(text)")
        #expect(text.contains("while a strict test runs, the isolated world \"an XCTest\""), "\(text)")
    }

    @Test("A factory marked liveInTests, or one a test overrides, is no live closure")
    func notALiveClosure() async {
        await #expect(processExitsWith: .success) {
            tellForgeWhatATestIs()
            let heard = Heard()
            await strictTest("strict", heard) {
                _ = await Task.detached { Container.liveSafe() }.value
                // Overridden by the test: an escape, whose world is the test's own.
                Container.liveUntouched.register { LiveService("mock") }
                _ = await Task.detached { Container.liveUntouched() }.value
            }
            let recorded = heard.forTheRun.value
            precondition(recorded.map(\.distinction) == [""], "\(recorded)")
            precondition(recorded[0].description.contains("while the isolated world \"strict\""), "\(recorded)")
        }
    }

    @Test("A test's own use of the process's world, and work carrying a process's world it captured, is deliberate")
    func deliberateUseIsNotReported() async {
        await #expect(processExitsWith: .success) {
            tellForgeWhatATestIs()
            let heard = Heard()
            let running = Occurrences("the strict test runs")
            let done = Occurrences("the test without the trait is done")
            async let strict: Void = strictTest("strict", heard) {
                running.signal()
                let finished = await done.happened(within: 60)
                precondition(finished, "the test without the trait did not finish")
            }
            // A test without the trait, on its own task tree, in the process's world.
            await TestsTask.$marked.withValue(true) {
                let started = await running.happened(within: 60)
                precondition(started, "the strict test did not start")
                _ = Container.liveUntouched()
                _ = await Task { Container.liveUntouched() }.value
                let processWorld = Container.Registrations.capture()
                _ = await Task.detached { processWorld.run { Container.liveUntouched() } }.value
                _ = onAThread { processWorld.run { Container.liveUntouched() } }
            }
            done.signal()
            await strict
            precondition(heard.problems.value.isEmpty && heard.forTheRun.value.isEmpty, "\(heard.forTheRun.value)")
        }
    }

    @Test("While no strict test runs (a lenient one does), nothing is reported")
    func noStrictTestNothingReported() async {
        await #expect(processExitsWith: .success) {
            tellForgeWhatATestIs()
            let forTheRun = Locked<[ResolutionError]>([])
            let ignore: @Sendable (ResolutionError) -> Void = { _ in }
            let record: @Sendable (ResolutionError) -> Void = { problem in forTheRun.mutate { $0.append(problem) } }
            _ = Container.Registrations.isolated(
                named: "lenient", fileID: #fileID, line: #line, strict: false, reportingProblems: ignore,
                reportingForTheRun: record
            ) { onAThread { Container.liveUntouched() } }
            precondition(forTheRun.value.isEmpty, "\(forTheRun.value)")
            // And with no isolated world at all.
            precondition(onAThread { Container.liveUntouched().name } == "live")
        }
    }
}
