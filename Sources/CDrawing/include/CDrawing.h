// cairo and pango, loaded when the screen is first drawn rather than at exec (CLazyLibrary): the drawing
// stack serves no PLAY, and cairo and pango bring 38 libraries of their own (X11's client libraries,
// fontconfig, freetype, harfbuzz, glib among them), which the loader mapped and relocated before main on
// every boot, before READY=1.
//
// Unlike CCurl and CEspeak, the painter keeps calling cairo and pango by their own names: drawing.c defines
// each function the painter uses under that name, hidden (not exported from the binary, so a library
// loaded later never binds to it), and forwards the call to the loaded library's. The daemon is therefore
// not bound to cairo or pango at exec: SwiftPM still links what pkg-config names for the headers, and
// image/drop-unused-libraries takes those entries out of the image's daemon, keeping any the binary binds a
// symbol to (a function the painter starts using without its forwarder): DrawingLibrariesTests.
#ifndef STILLROOM_CDRAWING_H
#define STILLROOM_CDRAWING_H

/// Loads libpangocairo-1.0.so.0 and with it pango, cairo, gobject and glib (once per process): NULL
/// when every function the painter calls is resolved, otherwise the loader's reason.
const char *stillroom_drawing_load(void);

#endif
