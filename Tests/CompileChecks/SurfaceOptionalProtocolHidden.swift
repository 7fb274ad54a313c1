// swift-version: 6
// expect-diagnostic: 'wrappedValue' is inaccessible due to 'internal' protection level
// Forge's OptionalProtocol is internal, as Factory 2.x made its own: importing Forge adds no public member to
// Optional.
import Forge

let count: Int? = 3
print(count.wrappedValue as Any)
