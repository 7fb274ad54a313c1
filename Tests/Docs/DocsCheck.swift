// The two checks docc does not make, on one module, from Tests/Docs/build.sh:
//
//   swift Tests/Docs/DocsCheck.swift SYMBOL_GRAPH_DIR SITE/data/documentation
//
// - Summaries: every public declaration in the module's symbol graphs has a `///` comment. Members the compiler
//   writes (a raw-value enum's `init(rawValue:)`, `Hashable`'s `hashValue` and `hash(into:)`) and those inherited
//   from another module's protocol (marked `::SYNTHESIZED::`) have no source to comment: skipped.
// - Curation: no page of the converted site lists one of the module's own symbols only under a topic that docc
//   made up, that is, every public symbol is curated by some page. docc also lists, on pages of their own
//   ("Equatable Implementations" and the like), members a type inherits from another module's protocol, `!=` for
//   one: those are not the module's to curate, and are skipped. A member the module declares in an extension of
//   another module's protocol (`Trait.isolatedRegistrations`) is its own, and is checked.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fatalError("usage: DocsCheck.swift SYMBOL_GRAPH_DIR SITE/data/documentation") }
let graphs = URL(fileURLWithPath: arguments[1])
let root = URL(fileURLWithPath: arguments[2])
var failed = false

// MARK: Summaries, from the symbol graphs

let compilerWritten: Set<String> = ["init(rawValue:)", "rawValue", "hashValue", "hash(into:)"]
/// The precise identifiers of the symbols the module declares (not the ones the compiler adds as inherited).
var declared: Set<String> = []
var symbols = 0
var missing: [String] = []
for url in try FileManager.default.contentsOfDirectory(at: graphs, includingPropertiesForKeys: nil)
where url.pathExtension == "json" {
    let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
        symbols += 1
        let path = symbol["pathComponents"] as? [String] ?? []
        let precise = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
        if precise.contains("::SYNTHESIZED::") { continue }
        declared.insert(precise)
        if symbol["docComment"] != nil { continue }
        if let name = path.last, compilerWritten.contains(name) { continue }
        let location =
            (symbol["location"] as? [String: Any]).map { location -> String in
                let file = (location["uri"] as? String ?? "").components(separatedBy: "/Sources/").last ?? ""
                let line = ((location["position"] as? [String: Any])?["line"] as? Int).map { $0 + 1 } ?? 0
                return " (Sources/\(file):\(line))"
            } ?? ""
        missing.append(path.joined(separator: ".") + location)
    }
}
if symbols == 0 {
    print("error: no symbols in \(graphs.path): was the symbol graph emitted?")
    exit(1)
} else if missing.isEmpty {
    print("all \(symbols) public symbols have a summary")
} else {
    for line in missing.sorted() { print("error: no /// summary: \(line)") }
    failed = true
}

// MARK: Curation, from the converted site

/// Every page: its JSON, and the precise identifier of the symbol it documents, by the page's identifier.
var pages: [(path: String, page: [String: Any])] = []
var externalIDs: [String: String] = [:]
let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects ?? []
for case let url as URL in files where url.pathExtension == "json" {
    guard let page = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else { continue }
    pages.append((String(url.path.dropFirst(root.path.count)), page))
    if let identifier = (page["identifier"] as? [String: Any])?["url"] as? String,
        let externalID = (page["metadata"] as? [String: Any])?["externalID"] as? String
    {
        externalIDs[identifier] = externalID
    }
}

/// What some page lists under a topic of its own. docc's pages of inherited members list a member the module
/// declares in an extension of another module's protocol even when a page curates it: only a symbol that no page
/// curates counts.
var curated: Set<String> = []
for (_, page) in pages {
    for section in page["topicSections"] as? [[String: Any]] ?? [] where section["generated"] as? Bool != true {
        curated.formUnion(section["identifiers"] as? [String] ?? [])
    }
}

var uncurated: [String] = []
for (path, page) in pages {
    let references = page["references"] as? [String: [String: Any]] ?? [:]
    for section in page["topicSections"] as? [[String: Any]] ?? [] where section["generated"] as? Bool == true {
        for identifier in section["identifiers"] as? [String] ?? [] where !curated.contains(identifier) {
            // A symbol inherited from elsewhere has "ITS_ID::SYNTHESIZED::TYPE_ID": what counts is who declared it.
            guard let externalID = externalIDs[identifier],
                let base = externalID.components(separatedBy: "::SYNTHESIZED::").first, declared.contains(base)
            else { continue }
            let title = references[identifier]?["title"] as? String ?? identifier
            uncurated.append("\(path): \(title), listed by docc under \"\(section["title"] ?? "")\"")
        }
    }
}
if pages.isEmpty {
    print("error: no pages at \(root.path): did docc convert run?")
    failed = true
} else if uncurated.isEmpty {
    print("every symbol of \(pages.count) pages is curated")
} else {
    for line in uncurated.sorted() { print("error: not curated: \(line)") }
    print("\(uncurated.count) symbols are listed by docc itself: add each to a `## Topics` group of its parent's page")
    failed = true
}
exit(failed ? 1 : 0)
