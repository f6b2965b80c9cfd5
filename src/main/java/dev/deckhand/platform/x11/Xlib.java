package dev.deckhand.platform.x11;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The one binding of libX11 in Deckhand: every libX11 call of the driver, the presence parts (the drawn
 * cursor, the Stop shortcut), the AT-SPI half's bus check and the tests goes through it. The extensions
 * have small bindings of their own ({@link Xtst}, {@link Xcomposite}, {@link XShm}, {@link XShape}), as
 * has libc ({@link LibC}). Declared here rather than taken from jna-platform's {@code X11} because that
 * one lacks several calls and passes X {@code Bool} as Java {@code boolean} (JNA sends {@code true} as
 * −1, which {@code XSendEvent} rejects with BadValue).
 *
 * <p>Conventions: {@code Display*} is a {@link Pointer}; every XID ({@code Window}, {@code Atom},
 * {@code Pixmap}, {@code KeySym}, {@code Time}) is a C {@code unsigned long} and is passed as a Java
 * {@code long}, which holds only on LP64 platforms ({@link XConnection#open} refuses others); X
 * {@code Bool} is {@code int}. Structures are read at fixed offsets from {@link com.sun.jna.Memory}
 * (offsets checked against the Xlib headers with {@code offsetof} on x86_64).
 */
interface Xlib extends Library {

    Xlib X = Native.load("X11", Xlib.class);

    int False = 0;
    int True = 1;
    int Success = 0;
    long None = 0;
    long CurrentTime = 0;
    long AnyPropertyType = 0;
    long AllPlanes = -1L;
    int ZPixmap = 2;

    int KeyPress = 2;
    int KeyRelease = 3;
    int ButtonPress = 4;
    int ButtonRelease = 5;
    int MotionNotify = 6;
    int EnterNotify = 7;
    int LeaveNotify = 8;
    int NotifyNormal = 0;
    int NotifyNonlinear = 3;
    int Button1Mask = 1 << 8;

    int ShiftMask = 1;
    int LockMask = 1 << 1;
    int ControlMask = 1 << 2;
    int Mod1Mask = 1 << 3;
    int Mod4Mask = 1 << 6;
    int Mod5Mask = 1 << 7;
    long KeyPressMask = 1L;
    long ButtonPressMask = 1L << 2;
    long ButtonReleaseMask = 1L << 3;
    long ExposureMask = 1L << 15;
    long StructureNotifyMask = 1L << 17;
    long SubstructureNotifyMask = 1L << 19;
    long PropertyChangeMask = 1L << 22;

    /** Event types {@link WatchedWindows} tells apart (X.h). */
    int PropertyNotify = 28;

    int MappingNotify = 34;

    int IsViewable = 2;
    int GrabModeAsync = 1;
    int GrabSuccess = 0;
    int AlreadyGrabbed = 1;
    int GrabNotViewable = 3;
    int GrabFrozen = 4;
    int PropModeReplace = 0;

    int TrueColor = 4;
    int InputOutput = 1;
    int AllocNone = 0;
    long CWBackPixel = 1L << 1;
    long CWBorderPixel = 1L << 3;
    long CWOverrideRedirect = 1L << 9;
    long CWSaveUnder = 1L << 10;
    long CWColormap = 1L << 13;

    /** {@code XWindowAttributes} layout (x86_64). */
    int WA_SIZE = 136,
            WA_X = 0,
            WA_Y = 4,
            WA_WIDTH = 8,
            WA_HEIGHT = 12,
            WA_BORDER = 16,
            WA_DEPTH = 20,
            WA_VISUAL = 24,
            WA_MAP_STATE = 92,
            WA_OVERRIDE_REDIRECT = 120;
    /** {@code XKeyEvent} / {@code XButtonEvent} layout inside a 192-byte {@code XEvent}. */
    int EV_SIZE = 192,
            EV_TYPE = 0,
            EV_SEND_EVENT = 16,
            EV_DISPLAY = 24,
            EV_WINDOW = 32,
            EV_ROOT = 40,
            EV_SUBWINDOW = 48,
            EV_TIME = 56,
            EV_X = 64,
            EV_Y = 68,
            EV_X_ROOT = 72,
            EV_Y_ROOT = 76,
            EV_STATE = 80,
            EV_KEYCODE = 84,
            EV_BUTTON = 84,
            EV_SAME_SCREEN = 88;
    /** {@code XPropertyEvent}: window@32 (as every event's), atom@40, time@48. */
    int EV_PROPERTY_ATOM = 40, EV_PROPERTY_TIME = 48;
    /** {@code XCrossingEvent} after the fields it shares with {@code XButtonEvent} (up to y_root@76). */
    int EV_CROSSING_MODE = 80, EV_CROSSING_DETAIL = 84, EV_CROSSING_FOCUS = 92, EV_CROSSING_STATE = 96;
    /** {@code XErrorEvent}. */
    int ERR_RESOURCE = 16, ERR_CODE = 32, ERR_REQUEST = 33, ERR_MINOR = 34;
    /** {@code XImage}. */
    int IMG_WIDTH = 0,
            IMG_HEIGHT = 4,
            IMG_DATA = 16,
            IMG_BYTE_ORDER = 24,
            IMG_DEPTH = 40,
            IMG_BPL = 44,
            IMG_BPP = 48,
            IMG_RED_MASK = 56,
            IMG_GREEN_MASK = 64,
            IMG_BLUE_MASK = 72;

    /** {@code Visual}: ext_data@0, visualid@8, class@16, red_mask@24, green_mask@32, blue_mask@40. */
    int VIS_RED_MASK = 24, VIS_GREEN_MASK = 32, VIS_BLUE_MASK = 40;
    /** {@code XVisualInfo}: visual@0, visualid@8, screen@16, depth@20, class@24. */
    int VI_SIZE = 64, VI_VISUAL = 0;
    /** {@code XSetWindowAttributes}: size 112. */
    int SWA_SIZE = 112,
            SWA_BACK_PIXEL = 8,
            SWA_BORDER_PIXEL = 24,
            SWA_SAVE_UNDER = 64,
            SWA_OVERRIDE_REDIRECT = 88,
            SWA_COLORMAP = 96;
    /** {@code XModifierKeymap}: int max_keypermod@0, KeyCode* modifiermap@8. */
    int MODMAP_MAX = 0, MODMAP_MAP = 8;

    /** {@code int (*)(Display*, XErrorEvent*)}. */
    interface ErrorHandler extends Callback {
        int callback(Pointer display, Pointer errorEvent);
    }

    /** {@code int (*)(Display*)}. */
    interface IOErrorHandler extends Callback {
        int callback(Pointer display);
    }

    /** {@code void (*)(Display*, void*)} — libX11 ≥ 1.7. */
    interface IOErrorExitHandler extends Callback {
        void callback(Pointer display, Pointer userData);
    }

    int XInitThreads();

    Pointer XOpenDisplay(String name);

    int XCloseDisplay(Pointer display);

    Pointer XSetErrorHandler(ErrorHandler handler);

    Pointer XSetIOErrorHandler(IOErrorHandler handler);

    void XSetIOErrorExitHandler(Pointer display, IOErrorExitHandler handler, Pointer userData);

    long XDefaultRootWindow(Pointer display);

    int XDefaultScreen(Pointer display);

    int XDisplayWidth(Pointer display, int screen);

    int XDisplayHeight(Pointer display, int screen);

    long XInternAtom(Pointer display, String name, int onlyIfExists);

    int XQueryExtension(
            Pointer display,
            String name,
            IntByReference majorOpcode,
            IntByReference firstEvent,
            IntByReference firstError);

    int XGetWindowProperty(
            Pointer display,
            long window,
            long property,
            long longOffset,
            long longLength,
            int delete,
            long reqType,
            LongByReference actualType,
            IntByReference actualFormat,
            LongByReference nitems,
            LongByReference bytesAfter,
            PointerByReference prop);

    int XFree(Pointer data);

    int XGetWindowAttributes(Pointer display, long window, Pointer attributes);

    int XTranslateCoordinates(
            Pointer display,
            long src,
            long dest,
            int srcX,
            int srcY,
            IntByReference destX,
            IntByReference destY,
            LongByReference child);

    int XQueryTree(
            Pointer display,
            long window,
            LongByReference root,
            LongByReference parent,
            PointerByReference children,
            IntByReference nchildren);

    int XSendEvent(Pointer display, long window, int propagate, long eventMask, Pointer event);

    int XFlush(Pointer display);

    /** Holds every other client's requests until {@link #XUngrabServer}: what is probed and sent between is atomic. */
    int XGrabServer(Pointer display);

    int XUngrabServer(Pointer display);

    /** A request that does nothing: Deckhand's mark in the server's order of requests ({@link GrabRecord}). */
    int XNoOp(Pointer display);

    int XSync(Pointer display, int discard);

    long XStringToKeysym(String name);

    int XDisplayKeycodes(Pointer display, IntByReference minKeycodes, IntByReference maxKeycodes);

    Pointer XGetKeyboardMapping(Pointer display, int firstKeycode, int keycodeCount, IntByReference keysymsPerKeycode);

    int XChangeKeyboardMapping(Pointer display, int firstKeycode, int keysymsPerKeycode, long[] keysyms, int numCodes);

    int XGetInputFocus(Pointer display, LongByReference focus, IntByReference revertTo);

    int XGrabKeyboard(Pointer display, long grabWindow, int ownerEvents, int pointerMode, int keyboardMode, long time);

    int XUngrabKeyboard(Pointer display, long time);

    int XQueryPointer(
            Pointer display,
            long window,
            LongByReference root,
            LongByReference child,
            IntByReference rootX,
            IntByReference rootY,
            IntByReference winX,
            IntByReference winY,
            IntByReference mask);

    Pointer XGetImage(Pointer display, long drawable, int x, int y, int width, int height, long planeMask, int format);

    int XDestroyImage(Pointer image);

    int XFreePixmap(Pointer display, long pixmap);

    int XConnectionNumber(Pointer display);

    int XPending(Pointer display);

    int XNextEvent(Pointer display, Pointer event);

    /** True (non-zero) when an event of {@code eventType} was in the queue: it is removed into {@code event}. */
    int XCheckTypedEvent(Pointer display, int eventType, Pointer event);

    /** {@link #XCheckTypedEvent} for the events of one window. */
    int XCheckTypedWindowEvent(Pointer display, long window, int eventType, Pointer event);

    // The Stop shortcut's key grab.

    int XGrabKey(
            Pointer display,
            int keycode,
            int modifiers,
            long grabWindow,
            int ownerEvents,
            int pointerMode,
            int keyboardMode);

    int XUngrabKey(Pointer display, int keycode, int modifiers, long grabWindow);

    int XKeysymToKeycode(Pointer display, long keysym);

    /** The keyboard's XKB state into {@code state} (an {@code XkbStateRec}; its first byte is the effective group). */
    int XkbGetState(Pointer display, int deviceSpec, Pointer state);

    /** Locks the keyboard's layout group (a person switching layouts; tests). */
    int XkbLockGroup(Pointer display, int deviceSpec, int group);

    /** Latches a layout group for the next key (tests: a person's one-key switch). */
    int XkbLatchGroup(Pointer display, int deviceSpec, int group);

    /** Locks (or unlocks) the modifiers in {@code affect} to {@code values} (tests: Caps Lock). */
    int XkbLockModifiers(Pointer display, int deviceSpec, int affect, int values);

    /**
     * A zeroed keyboard description ({@code XkbDescRec}) for the core keyboard ({@code device_spec} set to
     * {@link #XkbUseCoreKbd}), to read parts of the keyboard into; null when out of memory. Freed with
     * {@link #XkbFreeKeyboard}.
     */
    Pointer XkbAllocKeyboard();

    /**
     * Reads the keyboard's controls into {@code desc}'s {@code ctrls} (allocated when null): one request and its
     * reply. Of the reply, {@code enabled_ctrls} is copied when {@code which} has {@link #XkbControlsEnabledMask}.
     * {@code Success} (0) or an X error code.
     */
    int XkbGetControls(Pointer display, long which, Pointer desc);

    /** Frees what {@code which} names of {@code desc} and, when {@code freeAll}, every part and {@code desc} itself. */
    void XkbFreeKeyboard(Pointer desc, int which, int freeAll);

    /** Turns the boolean controls in {@code affect} on or off as {@code values} says (tests: AccessX bounce keys). */
    int XkbChangeEnabledControls(Pointer display, int deviceSpec, int affect, int values);

    /** Sets the modifier map (tests: Num Lock moved to another modifier); MappingSuccess (0), Busy (1), Failed (2). */
    int XSetModifierMapping(Pointer display, Pointer modmap);

    Pointer XGetModifierMapping(Pointer display);

    int XFreeModifiermap(Pointer modmap);

    /** The 256-bit vector of keys held down now (a request: answered whatever client holds the keyboard). */
    int XQueryKeymap(Pointer display, byte[] keys);

    /**
     * XKB's extension and the notifications the Stop shortcut and the keyboard watch follow: a new keyboard
     * (setxkbmap uploads one), a map change (keysyms, the modifier map) and a change of the enabled controls
     * (AccessX: sticky, slow, bounce keys). {@code major}/{@code minor} go in as the version asked for.
     */
    int XkbQueryExtension(
            Pointer display,
            IntByReference opcode,
            IntByReference eventBase,
            IntByReference errorBase,
            IntByReference major,
            IntByReference minor);

    int XkbSelectEvents(Pointer display, int deviceSpec, long affect, long values);

    int XkbUseCoreKbd = 0x0100;
    long XkbNewKeyboardNotifyMask = 1L;
    long XkbMapNotifyMask = 1L << 1;
    long XkbControlsNotifyMask = 1L << 3;
    int XkbNewKeyboardNotify = 0, XkbMapNotify = 1, XkbControlsNotify = 3;
    /** {@code XkbAnyEvent}: xkb_type@40; {@code XkbControlsNotifyEvent}: enabled_ctrls@52, enabled_ctrl_changes@56. */
    int XKB_TYPE = 40, XKB_ENABLED_CTRLS = 52, XKB_ENABLED_CTRL_CHANGES = 56;

    /** {@code XkbGetControls}' {@code which} for the enabled controls (XKB.h: {@code XkbControlsEnabledMask}). */
    long XkbControlsEnabledMask = 1L << 31;
    /** {@code XkbFreeKeyboard}'s {@code which} for every part (XKB.h: {@code XkbAllComponentsMask}). */
    int XkbAllComponentsMask = 0x7f;
    /**
     * Bits of {@code enabled_ctrls} (XKB.h: {@code XkbSlowKeysMask (1L << 1)}, {@code XkbBounceKeysMask (1L << 2)},
     * {@code XkbStickyKeysMask (1L << 3)}, {@code XkbOverlay1Mask (1L << 10)}, {@code XkbOverlay2Mask (1L << 11)};
     * bit 0 is RepeatKeys, on by default).
     */
    int XkbSlowKeysMask = 1 << 1,
            XkbBounceKeysMask = 1 << 2,
            XkbStickyKeysMask = 1 << 3,
            XkbOverlay1Mask = 1 << 10,
            XkbOverlay2Mask = 1 << 11;
    /**
     * {@code XkbDescRec} (/usr/include/X11/extensions/XKBstr.h): dpy@0 (a pointer), flags@8 and device_spec@10
     * (unsigned shorts), min_key_code@12 and max_key_code@13 (KeyCode, a byte), then {@code XkbControlsPtr ctrls}@16,
     * aligned to 8. {@code XkbControlsRec} (same header): mk_dflt_btn@0, num_groups@1, groups_wrap@2 (bytes),
     * internal@4 and ignore_lock@8 ({@code XkbModsRec}: two bytes and a short, so four bytes aligned to 2), then
     * {@code unsigned int enabled_ctrls}@12. Each offset printed with {@code offsetof} by gcc 12 on x86_64 against
     * that header and XKBlib.h (Debian 12, libX11 1.8.4).
     */
    int XKB_DESC_CTRLS = 16, XKB_CTRLS_ENABLED = 12;

    /**
     * The keyboard's map as the server holds it now, in a new keyboard description (types, keysyms and modifier map
     * for {@link #XkbAllClientInfoMask}, actions, behaviors and virtual modifiers for {@link #XkbAllServerInfoMask}):
     * one request and its reply; null when it fails. Freed with {@link #XkbFreeKeyboard}.
     */
    Pointer XkbGetMap(Pointer display, int which, int deviceSpec);

    /**
     * The keysym {@code desc}'s map makes of {@code keycode} (a KeyCode, one byte) under {@code mods} (the core state:
     * modifier bits, the group in bits 13-14); no request. False when that is NoSymbol.
     */
    int XkbTranslateKeyCode(Pointer desc, byte keycode, int mods, IntByReference modsReturn, LongByReference keysym);

    /** Reads the names {@code which} asks for into {@code desc} (the key names: {@link #XkbKeyNamesMask}). */
    int XkbGetNames(Pointer display, int which, Pointer desc);

    /** XKB.h: {@code XkbAllClientInfoMask} (key types, keysyms, modifier map), {@code XkbAllServerInfoMask}. */
    int XkbAllClientInfoMask = 0x7, XkbAllServerInfoMask = 0xf8, XkbKeyNamesMask = 0x200;

    /** {@code enabled_ctrls}' MouseKeys bit (XKB.h: {@code XkbMouseKeysMask (1L << 4)}). */
    int XkbMouseKeysMask = 1 << 4;

    /**
     * Offsets in the keyboard description {@link #XkbGetMap} returns, each printed with {@code offsetof} by gcc 12 on
     * x86_64 against /usr/include/X11/extensions/XKBstr.h and XKBlib.h (Debian 12, libX11 1.8.4):
     *
     * <ul>
     *   <li>{@code XkbDescRec}: min_key_code@12, max_key_code@13 (bytes), server@24, map@32, names@48 (pointers);
     *   <li>{@code XkbClientMapRec} (map): types@8, syms@24 (KeySym, 8 bytes each), key_sym_map@32, modmap@40;
     *   <li>{@code XkbSymMapRec} (8 bytes a key): kt_index[4]@0, group_info@4, width@5 (bytes), offset@6 (short);
     *   <li>{@code XkbKeyTypeRec} (40 bytes a type): mods.mask@0, map_count@5 (bytes), map@8 (a pointer);
     *   <li>{@code XkbKTMapEntryRec} (12 bytes an entry): active@0 (Bool, an int), level@4, mods.mask@6 (bytes);
     *   <li>{@code XkbServerMapRec} (server): acts@8 ({@code XkbAction}, 8 bytes each), behaviors@16 ({@code
     *       XkbBehavior}, one a keycode), key_acts@24 (unsigned short a key, an index into acts, 0 for none);
     *   <li>{@code XkbBehavior} (2 bytes a key): type@0, data@1 (unsigned chars);
     *   <li>{@code XkbAction}/{@code XkbModAction}: type@0, flags@1, mask@2 (bytes);
     *   <li>{@code XkbNamesRec} (names): keys@456 ({@code XkbKeyNameRec}, 4 chars a key).
     * </ul>
     */
    int XKB_DESC_MIN_KEY = 12,
            XKB_DESC_MAX_KEY = 13,
            XKB_DESC_SERVER = 24,
            XKB_DESC_MAP = 32,
            XKB_DESC_NAMES = 48,
            XKB_MAP_TYPES = 8,
            XKB_MAP_SYMS = 24,
            XKB_MAP_KEY_SYM_MAP = 32,
            XKB_MAP_MODMAP = 40,
            XKB_SYM_MAP_SIZE = 8,
            XKB_SYM_MAP_GROUP_INFO = 4,
            XKB_SYM_MAP_WIDTH = 5,
            XKB_SYM_MAP_OFFSET = 6,
            XKB_TYPE_SIZE = 40,
            XKB_TYPE_MAP_COUNT = 5,
            XKB_TYPE_MAP = 8,
            XKB_ENTRY_SIZE = 12,
            XKB_ENTRY_LEVEL = 4,
            XKB_ENTRY_MODS_MASK = 6,
            XKB_SERVER_ACTS = 8,
            XKB_SERVER_BEHAVIORS = 16,
            XKB_SERVER_KEY_ACTS = 24,
            XKB_BEHAVIOR_SIZE = 2,
            XKB_BEHAVIOR_TYPE = 0,
            XKB_BEHAVIOR_DATA = 1,
            XKB_ACTION_SIZE = 8,
            XKB_ACTION_FLAGS = 1,
            XKB_ACTION_MASK = 2,
            XKB_NAMES_KEYS = 456;

    /**
     * XKB.h: key behaviour types: {@code XkbKB_Default 0x00} (the only one Deckhand presses through), {@code
     * XkbKB_OpMask 0x7f}, {@code XkbKB_Permanent 0x80}.
     */
    int XkbKB_Default = 0, XkbKB_OpMask = 0x7f, XkbKB_Permanent = 0x80;

    /**
     * XKB.h: {@code XkbGetMap}'s {@code which} for the keysyms ({@code XkbKeySymsMask (1<<1)}), the actions ({@code
     * XkbKeyActionsMask (1<<4)}) and the behaviours ({@code XkbKeyBehaviorsMask (1<<5)}) of every key.
     */
    int XkbKeySymsMask = 1 << 1, XkbKeyActionsMask = 1 << 4, XkbKeyBehaviorsMask = 1 << 5;

    /** XKB.h: action types {@code XkbSA_NoAction}, {@code SetMods}, {@code LatchMods}, {@code LockMods}; the flag. */
    int XkbSA_NoAction = 0, XkbSA_SetMods = 1, XkbSA_LatchMods = 2, XkbSA_LockMods = 3, XkbSA_UseModMapMods = 4;

    /** Fills a generic event cookie's data (XI2); true when it did. */
    int XGetEventData(Pointer display, Pointer cookie);

    void XFreeEventData(Pointer display, Pointer cookie);

    // The drawn cursor's ARGB window (and tests acting as another client).

    int XMatchVisualInfo(Pointer display, int screen, int depth, int visualClass, Pointer visualInfo);

    long XCreateColormap(Pointer display, long window, Pointer visual, int alloc);

    long XCreateWindow(
            Pointer display,
            long parent,
            int x,
            int y,
            int width,
            int height,
            int borderWidth,
            int depth,
            int windowClass,
            Pointer visual,
            long valueMask,
            Pointer attributes);

    long XCreatePixmap(Pointer display, long drawable, int width, int height, int depth);

    Pointer XCreateGC(Pointer display, long drawable, long valueMask, Pointer values);

    int XFreeGC(Pointer display, Pointer gc);

    Pointer XCreateImage(
            Pointer display,
            Pointer visual,
            int depth,
            int format,
            int offset,
            Pointer data,
            int width,
            int height,
            int bitmapPad,
            int bytesPerLine);

    int XPutImage(
            Pointer display,
            long drawable,
            Pointer gc,
            Pointer image,
            int srcX,
            int srcY,
            int destX,
            int destY,
            int width,
            int height);

    int XSetWindowBackgroundPixmap(Pointer display, long window, long pixmap);

    int XClearWindow(Pointer display, long window);

    int XMapRaised(Pointer display, long window);

    int XUnmapWindow(Pointer display, long window);

    int XDestroyWindow(Pointer display, long window);

    int XMoveWindow(Pointer display, long window, int x, int y);

    int XRaiseWindow(Pointer display, long window);

    int XStoreName(Pointer display, long window, String name);

    int XChangeProperty(
            Pointer display, long window, long property, long type, int format, int mode, Pointer data, int nelements);

    // Used by tests to act as another client (solid-colour windows, a held grab, moves).

    long XCreateSimpleWindow(
            Pointer display,
            long parent,
            int x,
            int y,
            int width,
            int height,
            int borderWidth,
            long border,
            long background);

    int XSelectInput(Pointer display, long window, long eventMask);

    int XReparentWindow(Pointer display, long window, long parent, int x, int y);
}
