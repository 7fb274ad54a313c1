// Fails when a page of a converted DocC site lists a symbol under a topic that docc made up: a public symbol that
// no page curates. `swift Tests/Docs/CurationCheck.swift SITE/data/documentation`, from Tests/Docs/build.sh.
//
// The one exception: the pages docc makes for what a type inherits from a standard protocol ("Equatable
// Implementations" and the like, under "Default Implementations"), which list the standard library's members, `!=`
// for one, not Forge's.
import Foundation

let root = URL(fileURLWithPath: CommandLine.arguments[1])
guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
    fatalError("no converted documentation at \(root.path)")
}
var uncurated: [String] = []
var pages = 0
for case let url as URL in files where url.pathExtension == "json" {
    pages += 1
    if url.deletingPathExtension().lastPathComponent.hasSuffix("-implementations") { continue }
    guard let page = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
        let sections = page["topicSections"] as? [[String: Any]]
    else { continue }
    let references = page["references"] as? [String: [String: Any]] ?? [:]
    let pagePath = String(url.path.dropFirst(root.path.count))
    for section in sections where section["generated"] as? Bool == true {
        for identifier in section["identifiers"] as? [String] ?? [] where !identifier.hasSuffix("-Implementations") {
            let title = references[identifier]?["title"] as? String ?? identifier
            uncurated.append("\(pagePath): \(title), listed by docc under \"\(section["title"] ?? "")\"")
        }
    }
}
if pages == 0 {
    print("error: no pages at \(root.path): did docc convert run?")
    exit(1)
} else if uncurated.isEmpty {
    print("every symbol of \(pages) pages is curated")
} else {
    for line in uncurated.sorted() { print("error: not curated: \(line)") }
    print("\(uncurated.count) symbols are listed by docc itself: add each to a `## Topics` group of its parent's page")
    exit(1)
}
