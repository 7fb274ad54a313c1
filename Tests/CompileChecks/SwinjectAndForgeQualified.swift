// swift-version: 6
// expect: clean
// main-actor-default: clean
// The ways around two Containers that ComingFromSwinject.md's "What changes" gives: Forge's written with its module,
// and a scoped import that makes Container Swinject's in the file.
// other-module: Swinject Tests/CompileChecks/Modules/SwinjectStandIn.swift
import Forge
import Swinject
import class Swinject.Container

nonisolated final class LiveAPI {}

extension Forge.Container {
    static let api = Factory { LiveAPI() }
}

let container = Container()   // Swinject's
let api = Forge.Container.api()
