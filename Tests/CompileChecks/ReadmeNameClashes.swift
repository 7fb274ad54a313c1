// swift-version: 6
// expect: clean
// The README's sample of "Name clashes": a test file that imports an app declaring its own UnimplementedEndpoint and
// Forge, and names the one it means; the app module is Modules/NameClashApp.swift.
// other-module: App Tests/CompileChecks/Modules/NameClashApp.swift
// The README's sample, from here to the end.
import App
import struct App.UnimplementedEndpoint   // in this file, UnimplementedEndpoint is the app's
import Forge
import Testing

@Test func theCatalogIsNotThereYet() async {
    await #expect(throws: UnimplementedEndpoint.self) { try await Catalog().load() }
}

@Test func savingIsNotStubbed() {
    #expect(throws: Forge.UnimplementedEndpoint.self) { try APIClient.testValue.save("Heat") }   // Forge's stand-in
}
