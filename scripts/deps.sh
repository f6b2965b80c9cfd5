#!/usr/bin/env bash
# Installs the Debian packages Deckhand needs, when missing and running as root; otherwise names
# them and exits 1.   scripts/deps.sh main|test|eval|build|image|container
set -euo pipefail

BUILD=(openjdk-17-jdk-headless maven)
DESKTOP=(xvfb x11-utils at-spi2-core dbus-x11 libatspi2.0-0 openbox libxres1)
# A headless Wayland session (scripts/desktop.sh --wayland, the Wayland driver's tests): weston.
WAYLAND=(weston)
SAMPLE_APPS=(mousepad)
# i3-wm, fluxbox, icewm: WindowManagerBindingsTest reads their packages' default key bindings and runs each.
# python3-gi, python3-gi-cairo, gir1.2-gtk-3.0: the GTK 3 canvas test app (canvas_app.py); mtpaint: a GTK 2 app
# (the click_at measurements per toolkit, SentClickDesktopTest).
# xkbset: KeyboardChangesTest turns on AccessX (sticky, slow, bounce keys) as a granted program could.
# tmux: ProcessesStartedSinceTest (a multiplexer's client leads a terminal; its server runs commands on request).
# gucharmap, ristretto, xarchiver (and the suite's l3afpad, geany): GTK 3 menu bars no other test names
# (Gtk3MenuBarsTest).
TEST=(nodejs npm yad gnome-calculator featherpad libatk-wrapper-java libatk-wrapper-java-jni
      chromium chromium-driver xdotool scrot imagemagick shellcheck espeak-ng sox dunst libnotify-bin
      i3lock xclip zenity i3-wm fluxbox icewm python3-gi python3-gi-cairo gir1.2-gtk-3.0 mtpaint xkbset
      tmux gucharmap ristretto xarchiver)
# The apps of the task suite (tasks/, deckhand eval): GTK 3, GTK 4, Qt 5, LibreOffice (Writer, Calc, Impress; its GTK 3 plugin
# shows the accessibility tree), X11 apps without one (Athena's xedit, xterm), Chromium (a local form), l3afpad,
# geany, and mtPaint (a GTK 2 canvas on the pixel route).
EVAL=(mousepad yad gnome-calculator gnome-text-editor featherpad galculator pluma abiword
      libreoffice-writer libreoffice-calc libreoffice-impress libreoffice-gtk3 x11-apps xterm chromium l3afpad geany
      mtpaint)
# Inside the sandbox image (docker/Containerfile): Deckhand, the virtual desktop and the suite's apps.
IMAGE=(openjdk-17-jre-headless "${DESKTOP[@]}" "${EVAL[@]}")
# On the host, to build and run that image (scripts/image.sh): podman needs runc here (LINUX-DESKTOP.md).
CONTAINER=(podman runc debootstrap)

case "${1:-main}" in
  main) wanted=("${BUILD[@]}" "${DESKTOP[@]}" "${SAMPLE_APPS[@]}") ;;
  test) wanted=("${BUILD[@]}" "${DESKTOP[@]}" "${WAYLAND[@]}" "${SAMPLE_APPS[@]}" "${TEST[@]}" "${EVAL[@]}" "${CONTAINER[@]}") ;;
  eval) wanted=("${BUILD[@]}" "${DESKTOP[@]}" "${EVAL[@]}") ;;
  build) wanted=("${BUILD[@]}") ;;
  image) wanted=("${IMAGE[@]}") ;;
  container) wanted=("${CONTAINER[@]}") ;;
  *) echo "usage: scripts/deps.sh main|test|eval|build|image|container" >&2; exit 64 ;;
esac

missing=()
for p in "${wanted[@]}"; do
  case "$p" in
    # A JDK 17+ and Maven installed another way are fine.
    openjdk-17-jdk-headless) command -v javac >/dev/null && continue ;;
    openjdk-17-jre-headless) command -v java >/dev/null && continue ;;
    maven) command -v mvn >/dev/null && continue ;;
    nodejs) command -v node >/dev/null && continue ;;
    npm) command -v npm >/dev/null && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ]; then
  echo "deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: install them with: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
