/// A standard library keyed container (`KeyedDecodingContainer<Key>` or
/// `KeyedEncodingContainer<Key>`) kept between rows by a row coder (``RowDecoder``,
/// ``RowEncoder``), so that the next row of the same key type gets it again: a retain, where a
/// new one costs an allocation and generic metadata look-ups (about a tenth of a fetch or an
/// insert, in callgrind).
///
/// It is kept as its box, the one reference such a container holds and every copy shares: whether
/// anything else holds a copy is then whether the box is uniquely referenced. A container laid
/// out otherwise is not kept (on no platform Swift supports today). The coders decide when a
/// kept container may serve again (the decoder's generation, the encoder's stamp); this keeps it
/// and makes it back.
struct KeptContainer {
    /// The kept container's box, and its key type.
    private var box: ContainerBox?
    private var key: ObjectIdentifier?
    /// Makes the container from its box: a ``ContainerOfBox`` of the container's type, for
    /// `makerKey`, the key type of the last container kept. Kept when the container is let go:
    /// the next one is most often of the same key type, and a fetch or insert of one row then
    /// makes a container, not a maker.
    private var maker: AnyObject?
    private var makerKey: ObjectIdentifier?

    /// Whether no container is kept.
    var isEmpty: Bool { box == nil }

    /// Whether the kept container's box has a reference besides this one: an entity kept the
    /// container, or a copy of it.
    var isShared: Bool {
        @inline(__always) mutating get { box != nil && !isKnownUniquelyReferenced(&box) }
    }

    /// Whether the kept container's key type is `key`.
    @inline(__always)
    func holds(_ key: ObjectIdentifier) -> Bool {
        box != nil && self.key == key && maker != nil
    }

    /// The kept container's box and the ``ContainerOfBox`` that makes it back, once
    /// ``holds(_:)`` said its key type is the one asked for. The caller downcasts the maker to
    /// the maker of its own container type, which it names in its own generic code: a generic
    /// function here doing it would look that type's metadata up on every row.
    @inline(__always)
    var parts: (maker: AnyObject, box: ContainerBox) {
        (maker.unsafelyUnwrapped, box.unsafelyUnwrapped)
    }

    /// Keeps `container`, of key type `key`, in place of the one kept. Returns `false`, keeping
    /// nothing new, when `Container` is not laid out as one reference.
    @inline(__always)
    mutating func keep<Container>(_ container: Container, key: ObjectIdentifier) -> Bool {
        guard MemoryLayout<Container>.size == MemoryLayout<AnyObject>.size,
            MemoryLayout<Container>.alignment == MemoryLayout<AnyObject>.alignment
        else { return false }
        // The container's one reference, retained (done once a use or a key type, off the rows' path).
        box = withUnsafeBytes(of: container) { $0.load(as: ContainerBox.self) }
        self.key = key
        if makerKey != key {
            maker = ContainerOfBox<Container>()
            makerKey = key
        }
        return true
    }

    /// Lets the kept container go (its maker stays).
    @inline(__always)
    mutating func drop() {
        box = nil
        key = nil
    }
}

/// The static type ``KeptContainer`` sees the box of a standard library keyed
/// container as: never instantiated; retained, released, asked whether it is uniquely referenced
/// (which the object's own header answers, whatever the static type; a native Swift object is
/// destroyed by its own type when released for the last time), and made back into its container
/// by a ``ContainerOfBox`` of the container's own type. A
/// concrete class, not `AnyObject`: an unoptimized build copies an existential to ask, and the
/// answer is then never "unique".
final class ContainerBox {
    private init() {}
}

/// Makes a standard library keyed container (`KeyedDecodingContainer<Key>` or
/// `KeyedEncodingContainer<Key>`, laid out as one reference) from its box. `Container`'s metadata
/// is in the maker's own class metadata, so code that knows `Container` only generically calls
/// it without looking that metadata up (about 330 instructions a row, in callgrind).
final class ContainerOfBox<Container> {
    /// The container whose box is `box`. Never inlined: inlined, it would look `Container` up.
    @inline(never)
    func container(_ box: ContainerBox) -> Container {
        unsafeBitCast(box, to: Container.self)
    }
}
