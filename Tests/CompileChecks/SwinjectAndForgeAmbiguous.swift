// swift-version: 6
// expect-diagnostic: 'Container' is ambiguous for type lookup in this context
// A file that imports Swinject and Forge sees two Containers, as ComingFromSwinject.md's "What changes" says.
// other-module: Swinject Tests/CompileChecks/Modules/SwinjectStandIn.swift
import Forge
import Swinject

nonisolated final class LiveAPI {}

extension Container {
    static let api = Factory { LiveAPI() }
}
