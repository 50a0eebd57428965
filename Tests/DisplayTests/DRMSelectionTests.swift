import DRMDisplay
import Devices
import EventLoop
import FoundationEssentials
import StillroomCore
import Testing
import TestSupport

@Suite struct DRMSelectionTests {
    func cards(_ name: String) throws -> [DRMCardDescription] {
        let bytes = Files.read(RepositoryPaths.fixture("drm/\(name).json"))
        return try JSONDecoder().decode([DRMCardDescription].self, from: Data(bytes))
    }

    func choose(_ name: String, _ preference: DRMPreference = DRMPreference()) throws -> Result<DRMChoice, DisplayError> {
        DRMSelection.choose(from: try cards(name), preference: preference)
    }

    @Test func piWithTheDSIPanelPicksVC4NotTheRenderOnlyCard() throws {
        let choice = try choose("pi4-dsi-panel").get()
        #expect(choice.cardPath == "/dev/dri/card1" && choice.driver == "vc4")
        #expect(choice.connectorName == "DSI-1" && choice.connectorID == 52)
        #expect(choice.mode == DRMModeDescription(name: "800x480", width: 800, height: 480, refresh: 60, preferred: true))
        // No encoder active: the first CRTC its encoder can use (bit 2 of possible_crtcs).
        #expect(choice.crtcID == 105)
        #expect(choice.notes.isEmpty)
    }

    @Test func hdmiMonitorGetsItsPreferredModeOrTheBoardsChoice() throws {
        let preferred = try choose("pi-hdmi-monitor").get()
        #expect(preferred.connectorName == "HDMI-A-1" && preferred.mode.description == "1920x1080@60")
        #expect(preferred.crtcID == 87) // the CRTC already driving it
        let board = try choose("pi-hdmi-monitor", DRMPreference(mode: PixelSize(width: 1280, height: 720))).get()
        #expect(board.mode.description == "1280x720@60" && board.modeIndex == 2)
        let fifty = try choose("pi-hdmi-monitor", DRMPreference(mode: PixelSize(width: 1920, height: 1080), refresh: 50)).get()
        #expect(fifty.mode.description == "1920x1080@50")
        // A mode the monitor lacks: its preferred mode, with a note saying so.
        let missing = try choose("pi-hdmi-monitor", DRMPreference(mode: PixelSize(width: 800, height: 480))).get()
        #expect(missing.mode.description == "1920x1080@60")
        #expect(missing.notes.count == 1 && missing.notes[0].contains("no mode 800x480"))
    }

    @Test func spiPanelOnATinyDriverIsFoundWhenVC4HasNothingConnected() throws {
        let choice = try choose("pi-spi-panel").get()
        #expect(choice.driver == "ili9486" && choice.connectorName == "SPI-1")
        #expect(choice.mode.size == PixelSize(width: 480, height: 320))
        #expect(choice.crtcID == 35)
        // Asking for vc4 only finds nothing, and says what it saw.
        guard case .failure(let error) = try choose("pi-spi-panel", DRMPreference(driver: "vc4")) else {
            Issue.record("vc4 has nothing connected")
            return
        }
        #expect(error.kind == .notFound)
        #expect(error.detail.contains("HDMI-A-1 disconnected"))
    }

    @Test func qemuVirtualOutput() throws {
        let choice = try choose("qemu-bochs").get()
        #expect(choice.driver == "bochs-drm" && choice.connectorName == "Virtual-1")
        #expect(choice.mode.description == "1024x768@75")
        let board = try choose("qemu-bochs", DRMPreference(mode: PixelSize(width: 800, height: 600))).get()
        #expect(board.mode.description == "800x600@75") // the higher refresh of two equal sizes
    }

    @Test func noDisplayIsAClearNotFound() throws {
        guard case .failure(let error) = try choose("pi-no-display") else {
            Issue.record("nothing is connected")
            return
        }
        #expect(error.kind == .notFound)
        #expect(error.detail.contains("/dev/dri/card0 (v3d): no display outputs"))
        #expect(error.detail.contains("/dev/dri/card1 (vc4): nothing connected (HDMI-A-1 disconnected, HDMI-A-2 disconnected)"))
        guard case .failure(let none) = DRMSelection.choose(from: []) else {
            Issue.record("a display was chosen from no cards at all")
            return
        }
        #expect(none.detail.contains("no DRM device"))
    }

    @Test func aBoardFileConnectorMustExistAndBeConnected() throws {
        guard case .failure(let absent) = try choose("pi4-dsi-panel", DRMPreference(connector: "DPI-1")),
              case .failure(let dark) = try choose("pi4-dsi-panel", DRMPreference(connector: "HDMI-A-2")) else {
            Issue.record("expected failures")
            return
        }
        #expect(absent.detail.contains("no connector DPI-1 (has HDMI-A-1, HDMI-A-2, DSI-1, Writeback-1)"))
        #expect(dark.detail.contains("HDMI-A-2 is disconnected"))
        let named = try choose("pi4-dsi-panel", DRMPreference(connector: "DSI-1")).get()
        #expect(named.connectorID == 52)
    }

    @Test func panelsComeBeforeExternalPortsAndWritebackIsNeverChosen() throws {
        var both = try cards("pi4-dsi-panel")
        both[1].connectors[0].connection = .connected
        both[1].connectors[0].modes = [DRMModeDescription(name: "1920x1080", width: 1920, height: 1080, refresh: 60, preferred: true)]
        #expect(try DRMSelection.choose(from: both).get().connectorName == "DSI-1")
        var onlyWriteback = try cards("pi4-dsi-panel")
        onlyWriteback[1].connectors = [onlyWriteback[1].connectors[3]]
        onlyWriteback[1].connectors[0].connection = .connected
        onlyWriteback[1].connectors[0].modes = [DRMModeDescription(name: "w", width: 100, height: 100, refresh: 60)]
        #expect(throws: DisplayError.self) { try DRMSelection.choose(from: onlyWriteback).get() }
    }

    @Test func boardFileModesParse() {
        #expect(DRMPreference.parseMode("800x480")! == (PixelSize(width: 800, height: 480), nil))
        #expect(DRMPreference.parseMode("1920x1080@50")! == (PixelSize(width: 1920, height: 1080), 50))
        for bad in ["800", "800x480@", "800x480@0", "800x480@60@1", "x480@60"] { #expect(DRMPreference.parseMode(bad) == nil) }
    }

    @Test func descriptionsRoundTripThroughJSON() throws {
        let original = try cards("pi-spi-panel")
        let encoded = try JSONEncoder().encode(original)
        #expect(try JSONDecoder().decode([DRMCardDescription].self, from: encoded) == original)
        #expect(DRMConnectorDescription.typeName(11) == "HDMI-A" && DRMConnectorDescription.typeName(99) == "Type99")
    }

    /// The real open path on a machine with no DRM device (CI, this container): a clear message.
    @Test func openingWithoutADeviceSaysSo() throws {
        let loop = try EventLoop()
        let empty = TemporaryDirectory("stillroom-dri")
        defer { empty.remove() }
        do {
            _ = try DRMDisplay.open(loop: loop, directory: empty.path)
            Issue.record("opened a display from an empty directory")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.detail.contains("no DRM device"))
        }
    }
}

@Suite struct ScanOutTests {
    @Test(arguments: DisplayRotation.allCases)
    func rotatedCopyPutsEveryPixelWhereTheRotationSays(_ rotation: DisplayRotation) {
        let logical = PixelSize(width: 7, height: 4)
        let frame = Frame(size: logical)
        for y in 0..<4 { for x in 0..<7 { frame[x, y] = UInt32(0xFF00_0000 | (x << 8) | y) } }
        let panel = rotation.swapsAxes ? PixelSize(width: 4, height: 7) : logical
        let pitch = panel.width * 4 + 12 // padded rows, as dumb buffers may have
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: pitch * panel.height, alignment: 4)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: pitch * panel.height)
        let rect = PixelRect(x: 2, y: 1, width: 3, height: 2)
        RotatedCopy.copy(rect, of: frame, rotation: rotation, to: buffer, pitch: pitch)
        var copied = 0
        for py in 0..<panel.height {
            for px in 0..<panel.width {
                let value = buffer.load(fromByteOffset: py * pitch + px * 4, as: UInt32.self)
                let source = rotation.logicalPoint(x: px, y: py, logical: logical)
                if rect.contains(x: source.x, y: source.y) {
                    #expect(value == frame[source.x, source.y])
                    copied += 1
                } else {
                    #expect(value == 0, "pixel outside the damage written at panel (\(px), \(py))")
                }
            }
        }
        #expect(copied == rect.area)
    }

    @Test func eachBufferCatchesUpOnTheDamageItMissed() {
        let size = PixelSize(width: 100, height: 100)
        var damage = SwapChainDamage(size: size)
        #expect(damage.take(for: 1) == [PixelRect(size: size)]) // first frame: everything
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 50, y: 50, width: 10, height: 10)
        damage.add([a])
        #expect(damage.take(for: 0) == [PixelRect(size: size)]) // buffer 0 never had a frame
        damage.add([b])
        #expect(damage.take(for: 1) == [a, b]) // buffer 1 missed a and b
        #expect(damage.take(for: 0) == [b])
        #expect(damage.pending(for: 0).isEmpty && damage.pending(for: 1).isEmpty)
    }
}
