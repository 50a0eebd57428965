internal import CDRM
import Devices
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// A panel driven through DRM/KMS with two dumb buffers and page flips.
///
/// The painter's frame is the shadow buffer in RAM; a present copies only the damaged rectangles
/// (turned for the panel's mounting) into the back buffer, then asks for a page flip. The flip's
/// completion arrives as a readable DRM fd in the event loop, where `drmHandleEvent` runs the flip
/// handler; until then the display is busy and takes no second flip (a frame given meanwhile waits
/// and is flipped on completion). `setPowered(false)` sets the connector's DPMS property off (on atomic
/// drivers such as vc4 the kernel turns that into CRTC ACTIVE off). `close` waits for a flip in
/// flight, restores the CRTC as it was found (the console), frees the buffers and drops DRM master.
public final class DRMDisplay: Display {
    public weak var delegate: DisplayDelegate?
    public let choice: DRMChoice
    public let rotation: DisplayRotation
    /// The size the UI draws at (the mode's size, turned by `rotation`).
    public let size: PixelSize
    public var name: String { "drm:\(choice.driver) \(choice.connectorName) \(choice.mode)" + (rotation == .none ? "" : " rotated \(rotation)") }
    public private(set) var isBusy = false
    public private(set) var isPowered = true
    /// Page flips completed: for status and tests on real hardware.
    public private(set) var flipsCompleted = 0

    private let device: DRMDevice
    private var buffers: [DumbBuffer] = []
    private var front = 0
    private var damage: SwapChainDamage
    private var waitingFrame: Frame?
    /// The frame last given to `present`, to catch up with after the panel is lit again.
    private var latestFrame: Frame?
    private var watch: IOWatch?
    private var savedCRTC: UnsafeMutablePointer<drmModeCrtc>?
    private var mode: drmModeModeInfo
    private var connectorID: UInt32
    private var dpmsProperty: UInt32?
    private var closed = false

    /// Finds a card, connector, mode and CRTC (see `DRMSelection`), takes DRM master, sets the mode
    /// with a black buffer and watches the fd on `loop`. Throws `.notFound` with a readable reason when
    /// there is no screen (the box then plays audio without one), `.busy` when another program holds
    /// the display.
    public static func open(loop: EventLoop, preference: DRMPreference = DRMPreference(),
                            rotation: DisplayRotation = .none, directory: String = "/dev/dri") throws(DisplayError) -> DRMDisplay {
        let (cards, problems) = DRMDevice.describeAll(in: directory)
        if cards.isEmpty, let problem = problems.first { throw DisplayError(.busy, problem) }
        let choice: DRMChoice
        switch DRMSelection.choose(from: cards, preference: preference) {
        case .success(let chosen): choice = chosen
        case .failure(let error): throw error
        }
        return try DRMDisplay(device: DRMDevice(path: choice.cardPath), choice: choice, rotation: rotation, loop: loop)
    }

    /// Descriptions of every card in `directory`, as `DRMSelection` sees them (to capture a board's
    /// resources for a test fixture), and the cards that could not be opened.
    public static func describeCards(in directory: String = "/dev/dri") -> (cards: [DRMCardDescription], problems: [String]) {
        DRMDevice.describeAll(in: directory)
    }

    private init(device: DRMDevice, choice: DRMChoice, rotation: DisplayRotation, loop: EventLoop) throws(DisplayError) {
        self.device = device
        self.choice = choice
        self.rotation = rotation
        let panel = choice.mode.size
        size = rotation.logicalSize(panel: panel)
        damage = SwapChainDamage(size: size)
        connectorID = choice.connectorID

        if drmIsMaster(device.fd) == 0 {
            let result = drmSetMaster(device.fd)
            guard result == 0 else {
                throw DisplayError(.busy, "\(choice.cardPath): another program holds the display (DRM master): "
                                   + "stop the compositor or X server")
            }
        }
        guard let connector = drmModeGetConnector(device.fd, choice.connectorID) else {
            throw DisplayError(.notFound, "\(choice.connectorName) went away")
        }
        defer { drmModeFreeConnector(connector) }
        guard choice.modeIndex < Int(connector.pointee.count_modes) else {
            throw DisplayError(.notFound, "\(choice.connectorName) changed its modes")
        }
        mode = connector.pointee.modes[choice.modeIndex]
        dpmsProperty = Self.property(named: "DPMS", of: choice.connectorID, fd: device.fd)

        for _ in 0..<2 {
            buffers.append(try DumbBuffer(fd: device.fd, size: panel))
        }
        savedCRTC = drmModeGetCrtc(device.fd, choice.crtcID)
        var connectorIDs = [connectorID]
        let set = drmModeSetCrtc(device.fd, choice.crtcID, buffers[0].framebuffer, 0, 0, &connectorIDs, 1, &mode)
        guard set == 0 else {
            let error = drmFailure("drmModeSetCrtc on \(choice.connectorName) \(choice.mode)", set)
            releaseBuffers()
            throw error
        }
        do {
            watch = try loop.watch(device.fd, for: .readable) { [unowned self] _ in handleEvents() }
        } catch {
            restore()
            releaseBuffers()
            throw DisplayError(.failed, "cannot watch the DRM fd: \(error)")
        }
    }

    deinit { close() }

    public func present(_ frame: Frame, damage newDamage: [PixelRect]) throws(DisplayError) {
        precondition(frame.size == size, "frame \(frame.size) on a \(size) display")
        guard !closed else { return }
        damage.add(newDamage)
        latestFrame = frame
        guard isPowered else { return } // the buffers catch up from `damage` after the panel is lit
        guard !isBusy else {
            waitingFrame = frame // never a second flip in flight: flip this one on completion
            return
        }
        try flip(frame)
    }

    private func flip(_ frame: Frame) throws(DisplayError) {
        let back = 1 - front
        let buffer = buffers[back]
        for rect in damage.take(for: back) {
            RotatedCopy.copy(rect, of: frame, rotation: rotation, to: buffer.pixels, pitch: buffer.pitch)
        }
        let result = drmModePageFlip(device.fd, choice.crtcID, buffer.framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT),
                                     Unmanaged.passUnretained(self).toOpaque())
        guard result == 0 else {
            // The copy happened, the flip did not: this buffer is up to date; the screen is not.
            throw drmFailure("drmModePageFlip", result)
        }
        isBusy = true
        pendingBack = back
    }

    private var pendingBack = 0

    private func handleEvents() {
        var context = drmEventContext()
        context.version = 2
        context.page_flip_handler = { _, _, _, _, userData in
            guard let userData else { return }
            Unmanaged<DRMDisplay>.fromOpaque(userData).takeUnretainedValue().flipCompleted()
        }
        let result = drmHandleEvent(device.fd, &context)
        if result != 0 {
            let error = drmFailure("drmHandleEvent", result)
            watch?.cancel()
            delegate?.display(self, failed: error)
        }
    }

    private func flipCompleted() {
        isBusy = false
        front = pendingBack
        flipsCompleted += 1
        if let frame = waitingFrame, isPowered, !closed {
            waitingFrame = nil
            do {
                try flip(frame)
            } catch {
                delegate?.display(self, failed: error)
            }
            return
        }
        waitingFrame = nil
        delegate?.displayReady(self)
    }

    public func setPowered(_ on: Bool) throws(DisplayError) {
        guard on != isPowered, !closed else { return }
        if let dpmsProperty {
            let value = UInt64(on ? DRM_MODE_DPMS_ON : DRM_MODE_DPMS_OFF)
            let result = drmModeConnectorSetProperty(device.fd, connectorID, dpmsProperty, value)
            guard result == 0 else { throw drmFailure("DPMS \(on ? "on" : "off")", result) }
        } else if on {
            var connectorIDs = [connectorID]
            let result = drmModeSetCrtc(device.fd, choice.crtcID, buffers[front].framebuffer, 0, 0, &connectorIDs, 1, &mode)
            guard result == 0 else { throw drmFailure("drmModeSetCrtc (on)", result) }
        } else {
            let result = drmModeSetCrtc(device.fd, choice.crtcID, 0, 0, 0, nil, 0, nil)
            guard result == 0 else { throw drmFailure("drmModeSetCrtc (off)", result) }
        }
        isPowered = on
        // Frames presented while dark were only recorded as damage: show the latest one now.
        if on, !isBusy, let frame = latestFrame, !damage.pending(for: 1 - front).isEmpty {
            try flip(frame)
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        // A flip in flight still owns its buffer: wait for it (one refresh, a little more) before freeing.
        if isBusy {
            var poller = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 200) > 0 { handleEvents() }
        }
        watch?.cancel()
        watch = nil
        restore()
        releaseBuffers()
        _ = drmDropMaster(device.fd) // fails only if not master, which is then already the case
    }

    /// Puts back what the CRTC showed before (the console), when it showed anything.
    private func restore() {
        guard let saved = savedCRTC else { return }
        savedCRTC = nil
        defer { drmModeFreeCrtc(saved) }
        guard saved.pointee.mode_valid != 0, saved.pointee.buffer_id != 0 else { return }
        var connectorIDs = [connectorID]
        var savedMode = saved.pointee.mode
        _ = drmModeSetCrtc(device.fd, saved.pointee.crtc_id, saved.pointee.buffer_id, saved.pointee.x, saved.pointee.y,
                           &connectorIDs, 1, &savedMode) // best effort on the way out
    }

    private func releaseBuffers() {
        buffers.removeAll() // each frees itself
    }

    /// The id of a property of a KMS object, by name.
    static func property(named name: String, of object: UInt32, fd: Int32) -> UInt32? {
        guard let properties = drmModeObjectGetProperties(fd, object, UInt32(DRM_MODE_OBJECT_CONNECTOR)) else { return nil }
        defer { drmModeFreeObjectProperties(properties) }
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            let propertyName = withUnsafeBytes(of: property.pointee.name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if propertyName == name { return property.pointee.prop_id }
        }
        return nil
    }
}

/// A dumb buffer: memory the CPU writes and the display controller scans out, mapped into our address
/// space and registered as a framebuffer. XRGB8888 (depth 24, 32 bits a pixel).
final class DumbBuffer {
    let fd: Int32
    let handle: UInt32
    let pitch: Int
    let length: Int
    let framebuffer: UInt32
    let pixels: UnsafeMutableRawPointer

    init(fd: Int32, size: PixelSize) throws(DisplayError) {
        self.fd = fd
        var handle: UInt32 = 0, pitch: UInt32 = 0, length: UInt64 = 0
        let created = drmModeCreateDumbBuffer(fd, UInt32(size.width), UInt32(size.height), 32, 0, &handle, &pitch, &length)
        guard created == 0 else { throw drmFailure("drmModeCreateDumbBuffer \(size)", created) }
        var framebuffer: UInt32 = 0
        let added = drmModeAddFB(fd, UInt32(size.width), UInt32(size.height), 24, 32, pitch, handle, &framebuffer)
        guard added == 0 else {
            _ = drmModeDestroyDumbBuffer(fd, handle) // undoing a half-made buffer; the AddFB error is the one to report
            throw drmFailure("drmModeAddFB", added)
        }
        var offset: UInt64 = 0
        let mapped = drmModeMapDumbBuffer(fd, handle, &offset)
        let memory = mapped == 0 ? mmap(nil, Int(length), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset)) : MAP_FAILED
        guard let memory, memory != MAP_FAILED else {
            let error = mapped == 0 ? DisplayError(.failed, SystemError("mmap of a dumb buffer").description)
                : drmFailure("drmModeMapDumbBuffer", mapped)
            _ = drmModeRmFB(fd, framebuffer)
            _ = drmModeDestroyDumbBuffer(fd, handle)
            throw error
        }
        memset(memory, 0, Int(length)) // black, not whatever the memory held
        self.handle = handle
        self.pitch = Int(pitch)
        self.length = Int(length)
        self.framebuffer = framebuffer
        self.pixels = memory
    }

    deinit {
        munmap(pixels, length)
        _ = drmModeRmFB(fd, framebuffer) // teardown: nothing useful to do with a failure
        _ = drmModeDestroyDumbBuffer(fd, handle)
    }
}
