// swift-version: 6
// expect: clean
// OptionalProtocol's sample in its doc comment, verbatim: it needs nothing but Forge.
import Forge

// The sample of Sources/Forge/Engine/ClassInstance.swift, from here to the end.
func describe(_ value: Any) -> String {
    if let optional = value as? any OptionalProtocol, !optional.hasWrappedValue { return "nil" }
    return "\(value)"
}
