// swift-version: 6
// expect-diagnostic: conflicting arguments to generic parameter 'E' ('UnimplementedEndpoint' vs. 'UnimplementedEndpoint')
// The clash of NameClashAmbiguousType.swift inside Swift Testing's #expect(throws:), as the README quotes it.
// other-module: App Tests/CompileChecks/Modules/NameClashApp.swift
import App
import Forge
import Testing

@Test func theCatalogIsNotThereYet() {
    #expect(throws: UnimplementedEndpoint.self) { try Catalog().loadNow() }
}
