import CairoPainter
import SimulatorDevices
import Devices
import DisplayPipeline
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// The screen: opened right after READY=1, or — a DRM screen whose driver is not loaded yet — as soon as
/// its card appears. At boot the daemon does not wait for udev to finish loading drivers, nor for its own
/// drawing stack: the sound, the controls and the store are what PLAY needs, and a screen that comes a
/// moment later is drawn then. A screen that cannot be drawn on is said in the journal; the box plays on.
extension Daemon {
    func openDisplay() {
        let display: Display?
        do {
            display = try options.display.open(loop: loop)
        } catch {
            // No card yet, or one udev has not yet given its group: a change in the folder may bring it.
            if case .drm(let directory) = options.display {
                logger.warning("display: \(error); the box plays without a screen until one appears in \(directory)")
                waitForDRMCard(in: directory)
            } else {
                logger.warning("display: \(error); the box carries on without a screen")
            }
            return
        }
        guard let display else { return }
        show(on: display)
    }

    /// Draws the interface on `display` from now on: its lit or dark state, the pages its size cuts the
    /// transcript into, then the first frame.
    private func show(on display: Display) {
        let painter: ScenePainter
        do {
            painter = try ScenePainter(size: display.size)
        } catch {
            logger.error("display: \(error); the box carries on without a screen")
            display.close()
            return
        }
        let builder = InterfaceScene(measurer: painter.textMeasurer)
        panel.sceneBuilder = builder
        let driver = ScreenDriver(loop: loop, display: display, painter: painter) { [unowned self] now in
            builder.scene(ui, model: model, size: display.size, now: now)
        }
        driver.onError = { [logger] error in logger.error("display: \(error)") }
        // The journal's mark for boot measurements: the library (or clock face) is shown only now, after
        // READY=1, with the store, catalog, input and audio output already open (Daemon.init's order).
        driver.onFirstFrame = { [logger] in logger.notice("screen: first frame shown; PLAY is accepted") }
        screen = driver
        if let offscreen = display as? OffscreenDisplay, options.preview ?? (isatty(STDOUT_FILENO) == 1) {
            let writer = TerminalPreviewWriter(loop: loop)
            offscreen.onFrameChanged = { writer.show($0) }
            panel.previewWriter = writer
        }
        logger.info("display: \(display.name), \(display.size.width)x\(display.size.height)")
        driver.setScreenOn(ui.power != .off)
        refreshModel()
        driver.invalidate()
    }

    /// Watches `directory` for a card node (made by the kernel, then given its group by udev: both are
    /// changes), or, while the folder itself is missing (no KMS driver loaded at all), its parent for it.
    private func waitForDRMCard(in directory: String) {
        do {
            panel.watcher = try DeviceFolderWatcher(loop: loop, path: directory) { [unowned self] change in
                switch change {
                case .nodes(let names):
                    if names.contains(where: { $0.hasPrefix("card") }) { retryDisplay(reason: "a DRM card appeared") }
                case .folderAppeared:
                    retryDisplay(reason: "\(directory) appeared")
                }
            }
        } catch {
            logger.warning("display: cannot watch \(directory) for a screen (\(error)); the box carries on without one")
        }
    }

    private func retryDisplay(reason: String) {
        guard screen == nil else { return }
        let display: Display?
        do {
            display = try options.display.open(loop: loop)
        } catch {
            logger.info("display: \(reason), but \(error); still waiting")
            return
        }
        guard let display else { return }
        panel.watcher = nil
        show(on: display)
    }
}
