// A lazy property read by its own factory: the trap, checked in a child process, must say where and what.
import Forge
import Testing

/// An owner whose lazy property's factory reads that same property: a misuse that must not hang.
final class SelfReadingOwner: @unchecked Sendable {
    @LazyInjected(Container.readsItsOwner) var service: Tracked
}

extension Container {
    fileprivate static let readingOwner = Factory<SelfReadingOwner>(scope: .singleton) { SelfReadingOwner() }
    fileprivate static let readsItsOwner = Factory<Tracked> { trackedAfterReadingTheOwner() }
}

private func trackedAfterReadingTheOwner() -> Tracked {
    Tracked(id: Container.readingOwner().service.id + 1)
}

@Suite struct LazyPropertyMisuseTests {
    @Test func aLazyPropertyReadByItsOwnFactoryStopsWithAMessage() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.readingOwner().service
        }
        let text = standardError(result)
        #expect(text.contains("Forge: a @LazyInjected or @WeakLazyInjected property was used while its first value"))
        #expect(text.contains("Factory<Tracked> (ForgeTests/LazyPropertyMisuseTests.swift:"))
    }
}
