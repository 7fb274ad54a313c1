// AsyncParameterFactory.scopeOnParameters: one instance per parameter value, made by one creation every caller with
// that value awaits, on the same cells as a synchronous ParameterFactory's.
import Forge
import Testing

private let made = Counter()
private let disposed = Locked<[String]>([])

/// A document made for one ID.
private final class Document: Sendable {
    let id: String
    let serial: Int
    init(_ id: String) {
        self.id = id
        serial = made.increment()
    }
}

/// The callers of ``Container/document``, each counted as it is about to ask for its document.
private let askingForDocuments = Occurrences("a caller is about to ask for a document")

extension Container {
    /// Held until all forty callers of the test have said they are about to ask, so that they find the creation under
    /// way. Forge has no event for "this task now awaits the creation": this is the nearest, and a caller that asks
    /// only after the creation ended finds the instance it made, which is what it must get too.
    fileprivate static let document = AsyncParameterFactory<String, Document>(scope: .cached) { id in
        await askingForDocuments.expect(40)
        return Document(id)
    }.scopeOnParameters
    fileprivate static let expiring = AsyncParameterFactory<String, Document>(scope: .cached) { Document($0) }
        .scopeOnParameters
        .timeToLive(300)
        .onDispose { document in disposed.mutate { $0.append(document.id) } }
    fileprivate static let promisedDocument = AsyncParameterFactory<String, Document>.promised(scope: .cached)
        .scopeOnParameters
}

@Suite struct AsyncScopeOnParametersTests {
    @Test("Each value gets its own instance, made once however many tasks ask at the same time")
    func oneInstancePerValue() async {
        await Container.Registrations.isolated {
            let documents = await withTaskGroup(of: Document.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        askingForDocuments.signal()
                        return await Container.document(index % 2 == 0 ? "a" : "b")
                    }
                }
                return await group.reduce(into: [Document]()) { $0.append($1) }
            }
            // Two instances made, whatever other tests of this file make meanwhile.
            #expect(Set(documents.map(\.serial)).count == 2)
            let a = documents.filter { $0.id == "a" }
            let b = documents.filter { $0.id == "b" }
            #expect(a.count == 20 && b.count == 20)
            #expect(a.allSatisfy { $0 === a[0] })
            #expect(b.allSatisfy { $0 === b[0] })
            #expect(a[0] !== b[0])
            #expect(await Container.document("a") === a[0])
        }
    }

    @Test("A scope reset drops every value's instance, and disposes of each")
    func resetDropsEveryValue() async {
        await Container.Registrations.isolated {
            let first = await Container.expiring("x")
            _ = await Container.expiring("y")
            #expect(await Container.expiring("x") === first)
            disposed.value = []
            Container.Scope.cached.reset()
            #expect(Set(disposed.value) == ["x", "y"])
            #expect(await Container.expiring("x") !== first)
        }
    }

    @Test("A registration drops the values' instances, and tryResolve sees the registration")
    func registrationReplacesEveryValue() async {
        await Container.Registrations.isolated {
            await #expect(throws: ResolutionError.self) { try await Container.promisedDocument.tryResolve("p") }
            Container.promisedDocument.register { Document("mock-" + $0) }
            let mock = try? await Container.promisedDocument.tryResolve("p")
            #expect(mock?.id == "mock-p")
            #expect(await Container.promisedDocument("p") === mock)
            #expect(await Container.promisedDocument("q").id == "mock-q")
        }
    }
}
