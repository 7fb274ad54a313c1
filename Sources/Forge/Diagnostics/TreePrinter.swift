// Forge: the ready-made trace that prints each resolution as an indented tree.

/// The events of one top-level async resolution, whose nested resolutions may run on other threads, for
/// ``TreePrinter``.
final class TraceTree: Sendable {
    /// The events received so far, until the tree is printed; then `nil`, and a late one prints alone.
    let events = Locked<[ResolutionEvent]?>([])
}

/// Collects the events of each top-level resolution, and prints them as a tree when it returns: by thread, or, for
/// async resolutions, by their top-level resolution's ``TraceTree``.
enum TreePrinter {
    static func receive(_ event: ResolutionEvent) {
        if let tree = event.tree {
            let events = tree.events.withLock { events -> [ResolutionEvent]? in
                guard events != nil else { return [event] }  // the tree was printed: this one came late
                events!.append(event)
                guard event.depth == 0 else { return nil }
                defer { events = nil }
                return events
            }
            if let events { print(events) }
            return
        }
        let thread = ThreadResolutionState.current
        thread.printed.append(event)
        guard event.depth == 0 else { return }
        let events = thread.printed
        thread.printed = []
        print(events)
    }

    /// Prints what `tree` holds, if it was not printed: its top-level resolution failed, and sent no event.
    static func end(_ tree: TraceTree) {
        let events = tree.events.withLock { events in
            defer { events = nil }
            return events
        }
        if let events, !events.isEmpty { print(events) }
    }

    private static func print(_ events: [ResolutionEvent]) {
        let sorted = events.sorted { ($0.started, $0.depth) < ($1.started, $1.depth) }
        let tree = sorted.map { String(repeating: "  ", count: $0.depth) + $0.description }.joined(separator: "\n")
        Report.write(tree + "\n")
    }
}
