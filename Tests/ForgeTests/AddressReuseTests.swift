// A factory that dies must not leave a slot that a new factory at the same address inherits.
import Forge
import Testing

@Suite struct AddressReuseTests {
    /// Each round declares a non-`static` `Factory<Int>`, caches its instance in an isolated world and lets the
    /// factory die; the `Factory<String>` declared next usually lands at the same address. It must get a slot of
    /// its own: reading the dead factory's `Int` as a `String` crashed. In a child process, so that a crash fails
    /// this test alone.
    @Test("A new factory at a dead factory's address gets its own slot in an isolated world")
    func deadFactoriesLeaveNothingBehind() async {
        await #expect(processExitsWith: .success) {
            Container.Registrations.isolated {
                for round in 0..<1_000 {
                    do {
                        let number = Factory<Int>(scope: .cached) { round }
                        precondition(number() == round)
                    }
                    let text = Factory<String>(scope: .cached) { "fresh \(round)" }
                    precondition(text() == "fresh \(round)", "round \(round) read another factory's instance")
                }
            }
        }
    }
}
