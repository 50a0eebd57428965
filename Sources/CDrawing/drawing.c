// The cairo, pango and glib functions the painter calls, each defined here under its own name and
// forwarding to the library loaded by stillroom_drawing_load() (CDrawing.h says why). The list is the
// one place a new function is added; the compiler checks each line against the library's own header.
#include "CDrawing.h"

#include <LazyLibrary.h>
#include <cairo.h>
#include <pango/pangocairo.h>

STILLROOM_DLOPEN_NOTE(stillroom_drawing_note,
    "[{\"feature\":\"screen\",\"description\":\"Draws the player, the library and the clock face on the "
    "screen (cairo, text by pango)\",\"priority\":\"recommended\",\"soname\":[\"libpangocairo-1.0.so.0\","
    "\"libpango-1.0.so.0\",\"libcairo.so.2\",\"libgobject-2.0.so.0\",\"libglib-2.0.so.0\"]}]");

// RETURNING(type, name, parameters, arguments) and VOID(name, parameters, arguments), one per function.
#define DRAWING_FUNCTIONS(RETURNING, VOID)                                                                   \
    /* cairo: surfaces */                                                                                    \
    RETURNING(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height),  \
              (format, width, height))                                                                       \
    RETURNING(cairo_surface_t *, cairo_image_surface_create_for_data,                                         \
              (unsigned char *data, cairo_format_t format, int width, int height, int stride),                \
              (data, format, width, height, stride))                                                         \
    RETURNING(cairo_surface_t *, cairo_image_surface_create_from_png, (const char *filename), (filename))    \
    RETURNING(int, cairo_image_surface_get_width, (cairo_surface_t *surface), (surface))                     \
    RETURNING(int, cairo_image_surface_get_height, (cairo_surface_t *surface), (surface))                    \
    RETURNING(int, cairo_format_stride_for_width, (cairo_format_t format, int width), (format, width))       \
    RETURNING(cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface))                   \
    RETURNING(cairo_status_t, cairo_surface_write_to_png, (cairo_surface_t *surface, const char *filename),  \
              (surface, filename))                                                                           \
    RETURNING(cairo_status_t, cairo_surface_write_to_png_stream,                                             \
              (cairo_surface_t *surface, cairo_write_func_t write_func, void *closure),                      \
              (surface, write_func, closure))                                                                \
    VOID(cairo_surface_flush, (cairo_surface_t *surface), (surface))                                         \
    VOID(cairo_surface_destroy, (cairo_surface_t *surface), (surface))                                       \
    RETURNING(const char *, cairo_status_to_string, (cairo_status_t status), (status))                       \
    /* cairo: contexts and their state */                                                                    \
    RETURNING(cairo_t *, cairo_create, (cairo_surface_t *target), (target))                                  \
    VOID(cairo_destroy, (cairo_t *cr), (cr))                                                                 \
    VOID(cairo_save, (cairo_t *cr), (cr))                                                                    \
    VOID(cairo_restore, (cairo_t *cr), (cr))                                                                 \
    VOID(cairo_translate, (cairo_t *cr, double tx, double ty), (cr, tx, ty))                                 \
    VOID(cairo_scale, (cairo_t *cr, double sx, double sy), (cr, sx, sy))                                     \
    VOID(cairo_set_antialias, (cairo_t *cr, cairo_antialias_t antialias), (cr, antialias))                   \
    VOID(cairo_set_tolerance, (cairo_t *cr, double tolerance), (cr, tolerance))                              \
    VOID(cairo_set_operator, (cairo_t *cr, cairo_operator_t op), (cr, op))                                   \
    VOID(cairo_set_line_width, (cairo_t *cr, double width), (cr, width))                                     \
    /* cairo: sources and patterns */                                                                        \
    VOID(cairo_set_source, (cairo_t *cr, cairo_pattern_t *source), (cr, source))                             \
    VOID(cairo_set_source_rgb, (cairo_t *cr, double red, double green, double blue), (cr, red, green, blue)) \
    VOID(cairo_set_source_rgba, (cairo_t *cr, double red, double green, double blue, double alpha),          \
         (cr, red, green, blue, alpha))                                                                      \
    VOID(cairo_set_source_surface, (cairo_t *cr, cairo_surface_t *surface, double x, double y),              \
         (cr, surface, x, y))                                                                                \
    RETURNING(cairo_pattern_t *, cairo_get_source, (cairo_t *cr), (cr))                                      \
    RETURNING(cairo_pattern_t *, cairo_pattern_create_radial,                                                \
              (double cx0, double cy0, double radius0, double cx1, double cy1, double radius1),              \
              (cx0, cy0, radius0, cx1, cy1, radius1))                                                        \
    VOID(cairo_pattern_add_color_stop_rgba,                                                                  \
         (cairo_pattern_t *pattern, double offset, double red, double green, double blue, double alpha),     \
         (pattern, offset, red, green, blue, alpha))                                                         \
    VOID(cairo_pattern_set_extend, (cairo_pattern_t *pattern, cairo_extend_t extend), (pattern, extend))     \
    VOID(cairo_pattern_set_filter, (cairo_pattern_t *pattern, cairo_filter_t filter), (pattern, filter))     \
    VOID(cairo_pattern_destroy, (cairo_pattern_t *pattern), (pattern))                                       \
    /* cairo: paths and painting */                                                                          \
    VOID(cairo_new_path, (cairo_t *cr), (cr))                                                                \
    VOID(cairo_new_sub_path, (cairo_t *cr), (cr))                                                            \
    VOID(cairo_close_path, (cairo_t *cr), (cr))                                                              \
    VOID(cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y))                                       \
    VOID(cairo_line_to, (cairo_t *cr, double x, double y), (cr, x, y))                                       \
    VOID(cairo_rectangle, (cairo_t *cr, double x, double y, double width, double height),                    \
         (cr, x, y, width, height))                                                                          \
    VOID(cairo_arc, (cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2),        \
         (cr, xc, yc, radius, angle1, angle2))                                                               \
    VOID(cairo_arc_negative, (cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2), \
         (cr, xc, yc, radius, angle1, angle2))                                                               \
    VOID(cairo_clip, (cairo_t *cr), (cr))                                                                    \
    VOID(cairo_fill, (cairo_t *cr), (cr))                                                                    \
    VOID(cairo_fill_preserve, (cairo_t *cr), (cr))                                                           \
    VOID(cairo_stroke, (cairo_t *cr), (cr))                                                                  \
    VOID(cairo_paint, (cairo_t *cr), (cr))                                                                   \
    VOID(cairo_paint_with_alpha, (cairo_t *cr, double alpha), (cr, alpha))                                   \
    VOID(cairo_mask_surface, (cairo_t *cr, cairo_surface_t *surface, double surface_x, double surface_y),    \
         (cr, surface, surface_x, surface_y))                                                                \
    /* cairo: font options (pango's rendering through cairo) */                                              \
    RETURNING(cairo_font_options_t *, cairo_font_options_create, (void), ())                                 \
    VOID(cairo_font_options_destroy, (cairo_font_options_t *options), (options))                             \
    VOID(cairo_font_options_set_antialias, (cairo_font_options_t *options, cairo_antialias_t antialias),     \
         (options, antialias))                                                                               \
    VOID(cairo_font_options_set_hint_style, (cairo_font_options_t *options, cairo_hint_style_t hint_style),  \
         (options, hint_style))                                                                              \
    VOID(cairo_font_options_set_hint_metrics,                                                                \
         (cairo_font_options_t *options, cairo_hint_metrics_t hint_metrics), (options, hint_metrics))        \
    /* pango: fonts */                                                                                       \
    RETURNING(PangoFontMap *, pango_cairo_font_map_new, (void), ())                                          \
    RETURNING(PangoContext *, pango_font_map_create_context, (PangoFontMap *fontmap), (fontmap))             \
    VOID(pango_font_map_list_families, (PangoFontMap *fontmap, PangoFontFamily ***families, int *n_families), \
         (fontmap, families, n_families))                                                                    \
    RETURNING(const char *, pango_font_family_get_name, (PangoFontFamily *family), (family))                 \
    VOID(pango_cairo_context_set_resolution, (PangoContext *context, double dpi), (context, dpi))            \
    VOID(pango_cairo_context_set_font_options, (PangoContext *context, const cairo_font_options_t *options), \
         (context, options))                                                                                 \
    RETURNING(PangoFontDescription *, pango_font_description_new, (void), ())                                \
    VOID(pango_font_description_free, (PangoFontDescription *desc), (desc))                                  \
    VOID(pango_font_description_set_family, (PangoFontDescription *desc, const char *family), (desc, family)) \
    VOID(pango_font_description_set_weight, (PangoFontDescription *desc, PangoWeight weight), (desc, weight)) \
    VOID(pango_font_description_set_absolute_size, (PangoFontDescription *desc, double size), (desc, size))  \
    /* pango: attributes */                                                                                  \
    RETURNING(PangoAttrList *, pango_attr_list_new, (void), ())                                              \
    VOID(pango_attr_list_unref, (PangoAttrList *list), (list))                                               \
    VOID(pango_attr_list_insert, (PangoAttrList *list, PangoAttribute *attr), (list, attr))                  \
    RETURNING(PangoAttribute *, pango_attr_letter_spacing_new, (int letter_spacing), (letter_spacing))       \
    RETURNING(PangoAttribute *, pango_attr_line_height_new_absolute, (int height), (height))                 \
    RETURNING(PangoAttribute *, pango_attr_font_features_new, (const char *features), (features))            \
    /* pango: layouts */                                                                                     \
    RETURNING(PangoLayout *, pango_layout_new, (PangoContext *context), (context))                           \
    VOID(pango_layout_set_text, (PangoLayout *layout, const char *text, int length), (layout, text, length)) \
    VOID(pango_layout_set_font_description, (PangoLayout *layout, const PangoFontDescription *desc),         \
         (layout, desc))                                                                                     \
    VOID(pango_layout_set_attributes, (PangoLayout *layout, PangoAttrList *attrs), (layout, attrs))          \
    VOID(pango_layout_set_width, (PangoLayout *layout, int width), (layout, width))                          \
    VOID(pango_layout_set_height, (PangoLayout *layout, int height), (layout, height))                       \
    VOID(pango_layout_set_wrap, (PangoLayout *layout, PangoWrapMode wrap), (layout, wrap))                   \
    VOID(pango_layout_set_ellipsize, (PangoLayout *layout, PangoEllipsizeMode ellipsize), (layout, ellipsize)) \
    VOID(pango_layout_set_alignment, (PangoLayout *layout, PangoAlignment alignment), (layout, alignment))    \
    VOID(pango_layout_get_extents, (PangoLayout *layout, PangoRectangle *ink_rect, PangoRectangle *logical_rect), \
         (layout, ink_rect, logical_rect))                                                                   \
    RETURNING(int, pango_layout_get_line_count, (PangoLayout *layout), (layout))                             \
    RETURNING(gboolean, pango_layout_is_ellipsized, (PangoLayout *layout), (layout))                         \
    RETURNING(int, pango_layout_get_unknown_glyphs_count, (PangoLayout *layout), (layout))                   \
    VOID(pango_cairo_show_layout, (cairo_t *cr, PangoLayout *layout), (cr, layout))                          \
    /* glib: what pango hands back is freed with these */                                                    \
    VOID(g_object_unref, (gpointer object), (object))                                                        \
    VOID(g_free, (gpointer mem), (mem))

// libpangocairo brings the rest as its dependencies; dlsym on its handle searches them too (breadth first).
STILLROOM_LAZY_FORWARDERS(DRAWING_FUNCTIONS, drawing, "libpangocairo-1.0.so.0")

const char *stillroom_drawing_load(void) { return stillroom_lazy_library_load(&drawing); }
