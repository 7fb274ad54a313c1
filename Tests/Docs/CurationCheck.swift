// Fails when a page of a converted DocC site lists one of the module's own symbols under a topic that docc made up:
// a public symbol that no page curates.
//
//   swift Tests/Docs/CurationCheck.swift SITE/data/documentation SYMBOL_GRAPH_DIR     (from Tests/Docs/build.sh)
//
// What the module declares comes from its symbol graphs. docc also lists, on pages of their own ("Equatable
// Implementations" and the like), members a type inherits from another module's protocol, `!=` for one: those are
// not the module's to curate, and are skipped. A member the module declares in an extension of another module's
// protocol (`Trait.isolatedRegistrations`) is its own, and is checked.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fatalError("usage: CurationCheck.swift SITE/data/documentation SYMBOL_GRAPH_DIR") }
let root = URL(fileURLWithPath: arguments[1])
let graphs = URL(fileURLWithPath: arguments[2])

/// The precise identifiers of the symbols the module declares (not the ones the compiler adds as inherited).
var declared: Set<String> = []
for url in try FileManager.default.contentsOfDirectory(at: graphs, includingPropertiesForKeys: nil)
where url.pathExtension == "json" {
    let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
    for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
        let precise = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
        if !precise.contains("::SYNTHESIZED::") { declared.insert(precise) }
    }
}

/// Every page: its JSON, and the precise identifier of the symbol it documents, by the page's identifier.
var pages: [(path: String, page: [String: Any])] = []
var externalIDs: [String: String] = [:]
guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
    fatalError("no converted documentation at \(root.path)")
}
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
if pages.isEmpty || declared.isEmpty {
    print("error: no pages at \(root.path), or no symbols in \(graphs.path): did docc convert run?")
    exit(1)
} else if uncurated.isEmpty {
    print("every symbol of \(pages.count) pages is curated")
} else {
    for line in uncurated.sorted() { print("error: not curated: \(line)") }
    print("\(uncurated.count) symbols are listed by docc itself: add each to a `## Topics` group of its parent's page")
    exit(1)
}
