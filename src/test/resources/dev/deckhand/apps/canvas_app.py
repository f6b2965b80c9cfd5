#!/usr/bin/python3
"""A GTK 3 window with a usable accessibility tree and a canvas the tree says nothing about.

  canvas_app.py TITLE

A label ("clicks 0"), an unnamed drawing area (a light blue canvas that draws a dot where it is pressed), a
"Clear" button and a "Send" button. Every press on the canvas prints "press X Y SEND_EVENT" and sets the label
to "clicks N at X,Y"; the Send button prints "SEND" and sets the label to "sent". Deckhand's tests drive it:
the canvas is reached only by pixels (click_at), the buttons by uid or by their pixels.
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import GLib  # noqa: E402

GLib.set_prgname("deckhand-canvas")  # WM_CLASS deckhand-canvas, Deckhand-canvas: set before GTK starts
from gi.repository import Gdk, Gtk  # noqa: E402

title = sys.argv[1] if len(sys.argv) > 1 else "Deckhand Canvas"
window = Gtk.Window(title=title)
window.set_default_size(420, 320)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
window.add(box)
label = Gtk.Label(label="clicks 0")
box.pack_start(label, False, False, 0)
area = Gtk.DrawingArea()
area.set_size_request(400, 220)
area.add_events(Gdk.EventMask.BUTTON_PRESS_MASK | Gdk.EventMask.BUTTON_RELEASE_MASK)
dots = []


def draw(widget, cr):
    cr.set_source_rgb(0.75, 0.87, 1.0)
    cr.paint()
    cr.set_source_rgb(0.0, 0.0, 0.0)
    for (x, y) in dots:
        cr.rectangle(x - 3, y - 3, 6, 6)
        cr.fill()
    return False


def pressed(widget, event):
    if event.type != Gdk.EventType.BUTTON_PRESS:
        return False  # a double click's second event is not another press
    dots.append((event.x, event.y))
    label.set_text("clicks %d at %d,%d" % (len(dots), event.x, event.y))
    print("press %d %d %d" % (event.x, event.y, 1 if event.send_event else 0), flush=True)
    widget.queue_draw()
    return True


area.connect("draw", draw)
area.connect("button-press-event", pressed)
box.pack_start(area, True, True, 0)
buttons = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=4)
clear = Gtk.Button(label="Clear")


def cleared(button):
    dots.clear()
    label.set_text("clicks 0")
    area.queue_draw()
    print("CLEAR", flush=True)


clear.connect("clicked", cleared)
send = Gtk.Button(label="Send")


def sent(button):
    label.set_text("sent")
    print("SEND", flush=True)


send.connect("clicked", sent)
buttons.pack_start(clear, True, True, 0)
buttons.pack_start(send, True, True, 0)
box.pack_start(buttons, False, False, 0)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
