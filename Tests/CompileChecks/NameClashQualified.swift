// swift-version: 6
// expect: clean
// main-actor-default: clean
// The README's other ways around a clash of names: each name written with its module, or a typealias of the test
// module's own, which hides both imported declarations in every file of that module.
// other-module: App Tests/CompileChecks/Modules/NameClashApp.swift
import App
import Forge
import Testing

typealias UnimplementedEndpoint = App.UnimplementedEndpoint   // in this module, the app's

@Test func theCatalogIsNotThereYet() async {
    await #expect(throws: App.UnimplementedEndpoint.self) { try await Catalog().load() }
    await #expect(throws: UnimplementedEndpoint.self) { try await Catalog().load() }
    #expect(throws: Forge.UnimplementedEndpoint.self) { try APIClient.testValue.save("Heat") }
}
