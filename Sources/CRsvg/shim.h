#ifndef STORERECON_CRSVG_SHIM_H
#define STORERECON_CRSVG_SHIM_H
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <stdlib.h>
#include <string.h>

/* The e-mail's pictures: an inline SVG of summary.html rendered to PNG bytes with librsvg and cairo,
   for mail clients that strip SVG (Gmail, Outlook). One C function, so that the Swift side holds only
   the result buffer (Sources/StoreReconMail/SVGRaster+Unsafe.swift). */

typedef struct {
  unsigned char *data;
  size_t length;
  size_t capacity;
  int failed;
} storerecon_png_buffer;

static cairo_status_t storerecon_png_write(void *closure, const unsigned char *data, unsigned int length) {
  storerecon_png_buffer *buffer = (storerecon_png_buffer *)closure;
  if (buffer->length + length > buffer->capacity) {
    size_t capacity = buffer->capacity ? buffer->capacity : 65536;
    while (capacity < buffer->length + length) capacity *= 2;
    unsigned char *grown = (unsigned char *)realloc(buffer->data, capacity);
    if (grown == NULL) {
      buffer->failed = 1;
      return CAIRO_STATUS_NO_MEMORY;
    }
    buffer->data = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->data + buffer->length, data, length);
  buffer->length += length;
  return CAIRO_STATUS_SUCCESS;
}

/* Renders `length` bytes of SVG into a `width` x `height` pixel image on white and encodes it as PNG.
   Returns 0 and sets *out (the caller frees it with free()) and *out_length; else the step that failed:
   1 the SVG does not parse, 2 no image surface, 3 the rendering failed, 4 the PNG encoding failed.
   `message` (at least 256 bytes) gets librsvg's error text, if any. */
static inline int storerecon_svg_to_png(
    const char *svg, size_t length, int width, int height, unsigned char **out, size_t *out_length,
    char *message) {
  GError *error = NULL;
  message[0] = 0;
  *out = NULL;
  *out_length = 0;
  RsvgHandle *handle = rsvg_handle_new_from_data((const guint8 *)svg, (gsize)length, &error);
  if (handle == NULL) {
    if (error != NULL) {
      strncpy(message, error->message, 255);
      message[255] = 0;
      g_error_free(error);
    }
    return 1;
  }
  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(surface);
    g_object_unref(handle);
    return 2;
  }
  cairo_t *context = cairo_create(surface);
  cairo_set_source_rgb(context, 1, 1, 1);
  cairo_paint(context);
  RsvgRectangle viewport = {0, 0, (double)width, (double)height};
  gboolean rendered = rsvg_handle_render_document(handle, context, &viewport, &error);
  cairo_destroy(context);
  g_object_unref(handle);
  if (!rendered) {
    if (error != NULL) {
      strncpy(message, error->message, 255);
      message[255] = 0;
      g_error_free(error);
    }
    cairo_surface_destroy(surface);
    return 3;
  }
  storerecon_png_buffer buffer = {NULL, 0, 0, 0};
  cairo_status_t status = cairo_surface_write_to_png_stream(surface, storerecon_png_write, &buffer);
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS || buffer.failed) {
    free(buffer.data);
    return 4;
  }
  *out = buffer.data;
  *out_length = buffer.length;
  return 0;
}

#endif
