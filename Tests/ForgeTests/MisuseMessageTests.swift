// Misuse that does not stop the process: the warning it prints, checked in a child process.
import Forge
import Testing

@Suite struct MisuseMessageTests {
    @Test func anUnbalancedPopWarnsInDebugBuilds() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Container.Registrations.pop()
        }
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #if DEBUG
        #expect(text.contains("Forge warning: Registrations.pop() without a matching push() changed nothing."))
        #else
        #expect(!text.contains("Forge warning"))
        #endif
    }
}
