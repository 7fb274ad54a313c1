// swift-version: 6
// expect: clean
// The sample of a held stub, in ForgeTesting.md and in the documentation of ForgeTesting's `register`: the stub and
// the factory first, then the sample verbatim, in a test target that imports ForgeTesting.
import Forge
import ForgeTesting

nonisolated protocol Repository: AnyObject {}
nonisolated final class RepositoryStub: Repository {}
extension Container {
    static let repository = Factory<any Repository> { RepositoryStub() }
}

// The sample of Sources/ForgeTesting/ForgeTesting.docc/ForgeTesting.md, from here to the end.
// The sample of Sources/ForgeTesting/HeldStubs.swift, from here to the end.
let stub = RepositoryStub()   // a non-Sendable class
Container.repository.register { stub }
