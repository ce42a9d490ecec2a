import Dispatch
import Foundation

/// A bounded worker pool: runs `body` over `items` on at most `jobs` threads and keeps the input order.
/// Each call of `body` runs wholly on one thread, so a libgit2 handle opened inside it never crosses threads.
public enum Parallel {
    public static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item],
        jobs: Int,
        _ body: @escaping @Sendable (Item) -> Output
    ) -> [Output] {
        guard !items.isEmpty else { return [] }
        let state = PoolState<Item, Output>(items: items)
        let workers = max(1, min(jobs, items.count))
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            Thread.detachNewThread {
                while let (index, item) = state.next() {
                    state.store(body(item), at: index)
                }
                group.leave()
            }
        }
        group.wait()
        return state.results()
    }
}

/// The shared cursor and result slots of one `Parallel.map` call.
private final class PoolState<Item: Sendable, Output: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let items: [Item]
    private var cursor = 0
    private var slots: [Output?]

    init(items: [Item]) {
        self.items = items
        slots = Array(repeating: nil, count: items.count)
    }

    func next() -> (Int, Item)? {
        lock.withLock {
            guard cursor < items.count else { return nil }
            defer { cursor += 1 }
            return (cursor, items[cursor])
        }
    }

    func store(_ output: Output, at index: Int) { lock.withLock { slots[index] = output } }

    func results() -> [Output] { lock.withLock { slots.map { $0! } } }
}
