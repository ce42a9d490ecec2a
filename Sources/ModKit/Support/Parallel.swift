import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bounded worker pool: runs `body` over `items` on at most `jobs` threads and keeps the input order.
/// Each call of `body` runs wholly on one thread, so a libgit2 handle opened inside it never crosses threads.
public enum Parallel {
    /// `body` over `items`, started in input order.
    public static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item],
        jobs: Int,
        _ body: @escaping @Sendable (Item) -> Output
    ) -> [Output] {
        map(items, jobs: jobs, heaviestFirst: nil as ((Item) -> Int)?, body)
    }

    /// `weight`, when given, starts the heaviest items first (ties in input order), so one big item does not run
    /// alone at the end; the results stay in input order.
    public static func map<Item: Sendable, Output: Sendable, Weight: Comparable>(
        _ items: [Item],
        jobs: Int,
        heaviestFirst weight: ((Item) -> Weight)?,
        _ body: @escaping @Sendable (Item) -> Output
    ) -> [Output] {
        guard !items.isEmpty else { return [] }
        MallocTuning.keepFreedMemory
        var order = Array(items.indices)
        if let weight {
            let weights = items.map(weight)
            order.sort { weights[$0] != weights[$1] ? weights[$0] > weights[$1] : $0 < $1 }
        }
        let state = PoolState<Item, Output>(items: items, order: order)
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
    /// The indices of `items` in the order they are handed out.
    private let order: [Int]
    private var cursor = 0
    private var slots: [Output?]

    init(items: [Item], order: [Int]) {
        self.items = items
        self.order = order
        slots = Array(repeating: nil, count: items.count)
    }

    func next() -> (Int, Item)? {
        lock.withLock {
            guard cursor < order.count else { return nil }
            defer { cursor += 1 }
            return (order[cursor], items[order[cursor]])
        }
    }

    func store(_ output: Output, at index: Int) { lock.withLock { slots[index] = output } }

    func results() -> [Output] { lock.withLock { slots.map { $0! } } }
}

/// glibc gives each worker thread its own malloc arena and, by default, hands memory freed at the top
/// of it back to the kernel (MADV_DONTNEED, mprotect) at once, so the next module's allocations fault
/// the same pages in again; those calls take the process-wide mmap lock and made the workers wait on
/// each other (modkit status on 100 modules: 95 ms -> 72 ms with 2 workers). Keeping up to 64 MiB per
/// arena and growing arenas 16 MiB at a time avoids that churn.
private enum MallocTuning {
    static let keepFreedMemory: Void = {
        #if canImport(Glibc)
        // mallopt is in <malloc.h>, which the Glibc module does not import; M_TRIM_THRESHOLD is -1, M_TOP_PAD -2.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let address = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        let mallopt = unsafeBitCast(address, to: Mallopt.self)
        _ = mallopt(-1, 64 << 20)
        _ = mallopt(-2, 16 << 20)
        #endif
    }()
}
