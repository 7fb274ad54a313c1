// swift-version: 6
// expect-diagnostic: failed to produce diagnostic for expression
// The clash of NameClashAmbiguousType.swift inside an #expect(throws:) whose body awaits: Swift 6.3.1 names no clash,
// as the README quotes it. If this check fails because a later Swift names the clash, update the README's note.
// other-module: App Tests/CompileChecks/Modules/NameClashApp.swift
import App
import Forge
import Testing

@Test func theCatalogIsNotThereYet() async {
    await #expect(throws: UnimplementedEndpoint.self) { try await Catalog().load() }
}
