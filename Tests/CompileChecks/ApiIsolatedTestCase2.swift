// swift-version: 6
// expect: clean
// main-actor-default: expect-diagnostic: has different actor isolation from nonisolated overridden declaration
// IsolatedTestCase.isStrict's sample in its doc comment, after the imports.
import Forge
import ForgeTesting
import XCTest

// The sample of Sources/ForgeTesting/IsolatedTestCase.swift, from here to the end.
class StrictTestCase: IsolatedTestCase {
    override var isStrict: Bool { true }   // every test case of the project derives from this one
}
