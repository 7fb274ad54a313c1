// OptionalProtocol, as Factory 1.x declared it: unwrapping an `Any` that may hold an optional.
import Forge
import Testing

@Suite struct OptionalProtocolTests {
    @Test func unwrapsAnAnyHoldingAnOptional() throws {
        let some = Int?.some(3) as Any
        let none = Int?.none as Any
        let nested = Int??.some(nil) as Any
        #expect((some as? any OptionalProtocol)?.hasWrappedValue == true)
        #expect((some as? any OptionalProtocol)?.wrappedValue as? Int == 3)
        #expect((none as? any OptionalProtocol)?.hasWrappedValue == false)
        #expect((none as? any OptionalProtocol)?.wrappedValue == nil)
        // The outer optional holds a value: an inner `nil`.
        #expect((nested as? any OptionalProtocol)?.hasWrappedValue == true)
        let inner = try #require((nested as? any OptionalProtocol)?.wrappedValue)
        #expect((inner as? any OptionalProtocol)?.hasWrappedValue == false)
        #expect(!((3 as Any) is any OptionalProtocol))
    }
}
