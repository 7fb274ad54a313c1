// Misuse that does not stop the process: the warning it prints, checked in a child process.
import Forge
import Testing

@Suite struct MisuseMessageTests {
    @Test func anUnbalancedPopWarnsInDebugBuilds() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Registrations.pop()
        }
        expectUnbalancedPopWarning(in: result)
    }

    @Test func anIsolatedWorldsPushNeverReachesTheProcessWorldsStack() async {
        // The pop after the worlds finds the process world's stack empty, and says so: no push leaked into it.
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask { Container.Registrations.isolated { Container.Registrations.push() } }
                }
            }
            Container.Registrations.pop()
        }
        expectUnbalancedPopWarning(in: result)
    }
}

/// Checks that a child process's unbalanced pop warned on standard error in a debug build, and stayed quiet in a
/// release build. Tests whose pops warn run them in a child process, so that the warning never reaches the run's
/// output.
func expectUnbalancedPopWarning(
    in result: ExitTest.Result?, sourceLocation: SourceLocation = #_sourceLocation
) {
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #if DEBUG
        #expect(
            text.contains("Forge warning: Registrations.pop() without a matching push() changed nothing."),
            sourceLocation: sourceLocation)
    #else
        #expect(!text.contains("Forge warning"), sourceLocation: sourceLocation)
    #endif
}
