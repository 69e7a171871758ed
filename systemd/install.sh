#!/bin/sh
# Install courtier as a service on Raspberry Pi OS (or Debian), or take it away again.
#
#   sudo sh systemd/install.sh install      (what `sudo make install` runs)
#   sudo sh systemd/install.sh uninstall    (what `sudo make uninstall` runs)
#
# install, safe to run again (e.g. after `git pull`, to upgrade):
#   1. a venv in $PREFIX/venv holding courtier and its "pi" extra, from this tree,
#      and this README as $PREFIX/README.md (the unit's Documentation=);
#   2. the system user "courtier", in those of the gpio, i2c, spi and dialout
#      groups that exist;
#   3. /etc/courtier/table.toml, copied from hardware/tables/pi-4.toml unless
#      one exists (yours is never overwritten);
#   4. /var/lib/courtier, where saved games go, with everything in it owned by
#      the service user (a reinstalled user may have a new uid);
#   5. /etc/systemd/system/courtier.service, enabled; with a running systemd,
#      daemon-reload, and a running service is restarted on the new code.
#      When the table file has a [web] block (the table page), also the
#      drop-in courtier.service.d/web.conf that gives the service the local
#      network (the unit alone has none); without the block it is removed.
# uninstall removes 1, 2 and 5, and 3 only while it is still the unchanged
# example; it never removes /var/lib/courtier (saved games).
#
# Settings, from the environment:
#   PREFIX   where the venv goes (default /opt/courtier): letters, digits and
#            / . _ - + only, as the unit file holds it
#   DESTDIR  prefixed to every path, to build a tree for a package or an
#            image; with it set, commands that would change this machine
#            (useradd, usermod, userdel, chown, systemctl) are only printed
#            unless given explicitly below. The venv's scripts name their
#            final place ($PREFIX), so the tree works once copied there.
#   PYTHON   the Python that makes the venv (default python3)
#   USERADD USERMOD USERDEL GETENT CHOWN SYSTEMCTL   the commands used
#            Without systemd as PID 1 (an image build, a chroot) systemctl
#            can only enable and disable: daemon-reload, restart and stop
#            are skipped, and the service starts at the next boot.
set -eu

PREFIX=${PREFIX:-/opt/courtier}
DESTDIR=${DESTDIR:-}
PYTHON=${PYTHON:-python3}
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "$DESTDIR" ]; then
    system="print_only"
else
    system=""
fi
USERADD=${USERADD:-$system useradd}
USERMOD=${USERMOD:-$system usermod}
USERDEL=${USERDEL:-$system userdel}
CHOWN=${CHOWN:-$system chown}
SYSTEMCTL=${SYSTEMCTL:-$system systemctl}
GETENT=${GETENT:-getent}

SERVICE=courtier.service
SERVICE_USER=courtier
GROUPS_WANTED="gpio i2c spi dialout"
VENV=$PREFIX/venv
DOC=$PREFIX/README.md
TABLE=/etc/courtier/table.toml
EXAMPLE=$SRC/hardware/tables/pi-4.toml
STATE=/var/lib/courtier
UNIT=/etc/systemd/system/$SERVICE
DROPIN_DIR=$UNIT.d
DROPIN=$DROPIN_DIR/web.conf

say() { printf 'courtier: %s\n' "$*"; }
warn() { printf 'courtier: warning: %s\n' "$*" >&2; }
die() { printf 'courtier: %s\n' "$*" >&2; exit 1; }
print_only() { say "would run: $*"; }

check() {
    case $PREFIX in
        /*) ;;
        *) die "PREFIX must be an absolute path, not '$PREFIX'" ;;
    esac
    case $PREFIX in
        *[!A-Za-z0-9/._+-]*)
            die "PREFIX '$PREFIX' holds a space or a character the unit file cannot hold as it is;" \
                "use only letters, digits and / . _ - +" ;;
    esac
    if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
        die "run this as root: sudo make $1"
    fi
}

# systemctl answers "offline" when systemd is not PID 1: then only the unit
# files can be changed (enable, disable), not the running manager. A staged
# tree (DESTDIR, systemctl only printed) has no manager of its own either.
manager_running() {
    case $SYSTEMCTL in
        print_only*) return 1 ;;
    esac
    state=$($SYSTEMCTL is-system-running 2>/dev/null) || true
    [ -n "$state" ] && [ "$state" != offline ]
}

no_manager() {
    case $SYSTEMCTL in
        print_only*) say "a staged tree: no systemd to $1" ;;
        *) say "no running systemd (an image build or a chroot?): no systemd to $1" ;;
    esac
}

# --- 1. the venv ---------------------------------------------------------------

venv_python() { printf '%s' "$DESTDIR$VENV/bin/python"; }

make_venv() {
    if [ -x "$(venv_python)" ] && "$(venv_python)" -m pip --version >/dev/null 2>&1; then
        return
    fi
    if [ -e "$DESTDIR$VENV" ]; then
        say "the venv $VENV has no working pip (made without python3-venv?): making it again"
        rm -rf "$DESTDIR$VENV"
    fi
    say "creating the venv $VENV"
    if ! "$PYTHON" -m venv "$DESTDIR$VENV" || ! "$(venv_python)" -m pip --version >/dev/null 2>&1; then
        rm -rf "$DESTDIR$VENV"
        die "could not create a venv with pip using $PYTHON: sudo apt install python3-venv"
    fi
}

# spidev (luma's SPI screens) has no wheel on PyPI for the Pi: pip builds it,
# which needs a C compiler and Python's headers. Say so before pip starts.
check_build_tools() {
    missing=""
    command -v "${CC:-cc}" >/dev/null 2>&1 || missing="a C compiler"
    if ! "$(venv_python)" -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        missing="${missing:+$missing and }the Python headers (Python.h)"
    fi
    if [ -n "$missing" ]; then
        die "pip must build spidev (it has no wheel for this machine), which needs $missing:" \
            "sudo apt install gcc python3-dev (the same on Raspberry Pi OS and Debian), then run this again"
    fi
}

# After a failed pip run, name each package whose build failed and what it needs.
explain_pip_failure() {
    failed=$(sed -n -e 's/.*Failed building wheel for \([A-Za-z0-9._-]*\).*/\1/p' \
                    -e 's/.*Building wheel for \([A-Za-z0-9._-]*\) .*error.*/\1/p' "$1" | sort -u)
    if [ -z "$failed" ]; then
        die "pip failed (see its message above); it needs PyPI to be reachable"
    fi
    for package in $failed; do
        case $package in
            spidev)
                warn "spidev could not be built: it needs gcc and python3-dev" \
                    "(sudo apt install gcc python3-dev, on Raspberry Pi OS and Debian alike)" ;;
            lgpio)
                warn "lgpio could not be built (no wheel for this Python and machine): on Raspberry Pi OS" \
                    "sudo apt install swig liblgpio-dev python3-dev; Debian has no liblgpio-dev, so build" \
                    "and install the lg C library (joan2937/lg) first, or use a Python lgpio has wheels for" ;;
            *)
                warn "$package could not be built: see pip's message above" ;;
        esac
    done
    die "pip could not build: $(echo $failed)"
}

install_venv() {
    make_venv
    check_build_tools
    # pip builds inside the tree it is given; building from a copy leaves no
    # root-owned build/ or egg-info in the user's checkout.
    build=$(mktemp -d)
    trap 'rm -rf "$build"' EXIT
    mkdir "$build/src"
    (cd "$SRC" && tar --exclude=./.venv --exclude=./.git --exclude=./build --exclude=./.pytest_cache \
        --exclude=./.hypothesis -cf - .) |
        tar -C "$build/src" -xf -
    say "installing courtier[pi,web] from $SRC into $VENV"
    {
        status=0
        "$(venv_python)" -m pip install --upgrade "$build/src[pi,web]" 2>&1 || status=$?
        echo "$status" > "$build/status"
    } | tee "$build/pip.log"
    if [ "$(cat "$build/status")" -ne 0 ]; then
        explain_pip_failure "$build/pip.log"
    fi
    if [ -n "$DESTDIR" ]; then
        relocate_venv
    fi
    cp "$SRC/README.md" "$DESTDIR$DOC"
    chmod 0644 "$DESTDIR$DOC"
}

# The venv was made in $DESTDIR$VENV, so its scripts' #! lines and activate
# name that place: make them name $VENV, where the tree will run.
relocate_venv() {
    "$(venv_python)" - "$DESTDIR$VENV" "$VENV" <<'EOF'
import sys
from pathlib import Path

staged, final = sys.argv[1], sys.argv[2]
for path in Path(staged, "bin").iterdir():
    if path.is_symlink() or not path.is_file():
        continue
    data = path.read_bytes()
    if staged.encode() in data:
        path.write_bytes(data.replace(staged.encode(), final.encode()))
EOF
}

# --- 2. the user -----------------------------------------------------------------

# The groups of GROUPS_WANTED that exist here, comma-separated.
existing_groups() {
    groups=""
    for group in $GROUPS_WANTED; do
        if $GETENT group "$group" >/dev/null 2>&1; then
            groups=${groups:+$groups,}$group
        else
            warn "group '$group' does not exist, so $SERVICE_USER cannot join it and the unit does" \
                "not ask for it; Raspberry Pi OS has it (package raspberrypi-sys-mods): create it and" \
                "install again if a device needs it"
        fi
    done
    printf '%s' "$groups"
}

install_user() {
    if $GETENT passwd "$SERVICE_USER" >/dev/null 2>&1; then
        say "user $SERVICE_USER exists; making sure it is in: $SERVICE_GROUPS"
        if [ -n "$SERVICE_GROUPS" ]; then
            $USERMOD --append --groups "$SERVICE_GROUPS" "$SERVICE_USER"
        fi
    else
        say "creating the system user $SERVICE_USER (groups: $SERVICE_GROUPS)"
        if [ -n "$SERVICE_GROUPS" ]; then
            $USERADD --system --user-group --home-dir "$STATE" --no-create-home \
                --shell /usr/sbin/nologin --groups "$SERVICE_GROUPS" "$SERVICE_USER"
        else
            $USERADD --system --user-group --home-dir "$STATE" --no-create-home \
                --shell /usr/sbin/nologin "$SERVICE_USER"
        fi
    fi
}

# --- 3. the table file and 4. the saved games -------------------------------------

install_table() {
    if [ -e "$DESTDIR$TABLE" ]; then
        say "keeping your $TABLE"
        return
    fi
    mkdir -p "$DESTDIR${TABLE%/*}"
    cp "$EXAMPLE" "$DESTDIR$TABLE"
    chmod 0644 "$DESTDIR$TABLE"
    say "installed $TABLE from hardware/tables/pi-4.toml: edit it to match your wiring"
}

# Everything under the state directory becomes the service user's: after an
# uninstall and a reinstall the user may have a new uid, and the saved games
# must stay readable. -h: a link is changed itself, never what it points to.
install_state() {
    mkdir -p "$DESTDIR$STATE"
    chmod 0750 "$DESTDIR$STATE"
    $CHOWN -R -h "$SERVICE_USER:$SERVICE_USER" "$DESTDIR$STATE"
}

# --- 5. the unit ----------------------------------------------------------------

install_unit() {
    mkdir -p "$DESTDIR${UNIT%/*}"
    if [ -n "$SERVICE_GROUPS" ]; then
        groups_line="s|^SupplementaryGroups=.*|SupplementaryGroups=$(echo "$SERVICE_GROUPS" | tr , ' ')|"
    else
        groups_line="/^SupplementaryGroups=/d"
    fi
    sed -e "s|/opt/courtier|$PREFIX|g" -e "$groups_line" "$SRC/systemd/$SERVICE" > "$DESTDIR$UNIT"
    chmod 0644 "$DESTDIR$UNIT"
    say "installed $UNIT (ExecStart=$VENV/bin/courtier)"
    install_web_dropin
    $SYSTEMCTL enable "$SERVICE"
    if ! manager_running; then
        no_manager "reload or restart; the service starts at the next boot"
        return
    fi
    $SYSTEMCTL daemon-reload
    if $SYSTEMCTL is-active --quiet "$SERVICE"; then
        $SYSTEMCTL restart "$SERVICE"
        say "restarted the running $SERVICE on the new code"
    fi
}

# The unit has no network; a table file with a [web] block (the table page)
# gets the drop-in that lets the service serve the local network, and loses it
# again when the block goes. A header line `[web]`, or `web = {...}` / `web.x = ...`.
wants_web() {
    [ -f "$DESTDIR$TABLE" ] &&
        grep -Eq '^[[:space:]]*(\[[[:space:]]*web[[:space:]]*\]|web[[:space:]]*[.=])' "$DESTDIR$TABLE"
}

install_web_dropin() {
    if wants_web; then
        mkdir -p "$DESTDIR$DROPIN_DIR"
        cp "$SRC/systemd/courtier-web.conf" "$DESTDIR$DROPIN"
        chmod 0644 "$DESTDIR$DROPIN"
        say "installed $DROPIN: $TABLE has a [web] block, so the service may serve the local network"
    elif [ -e "$DESTDIR$DROPIN" ]; then
        rm -f "$DESTDIR$DROPIN"
        rmdir "$DESTDIR$DROPIN_DIR" 2>/dev/null || true
        say "removed $DROPIN: $TABLE has no [web] block, so the service has no network"
    fi
}

do_install() {
    check install
    install_venv
    SERVICE_GROUPS=$(existing_groups)
    install_user
    install_table
    install_state
    install_unit
    say "done. Next: edit $TABLE, run the self-test:"
    say "  sudo -u $SERVICE_USER $VENV/bin/courtier selftest"
    say "then start the table: sudo systemctl start courtier"
}

do_uninstall() {
    check uninstall
    if manager_running; then
        if ! $SYSTEMCTL disable --now "$SERVICE"; then
            warn "systemctl could not stop or disable $SERVICE (not installed?)"
        fi
    else
        no_manager "stop the service"
        if [ -e "$DESTDIR$UNIT" ] && ! $SYSTEMCTL disable "$SERVICE"; then
            warn "systemctl could not disable $SERVICE"
        fi
    fi
    rm -f "$DESTDIR$UNIT" "$DESTDIR$DROPIN"
    rmdir "$DESTDIR$DROPIN_DIR" 2>/dev/null || true
    if manager_running; then
        $SYSTEMCTL daemon-reload
    fi
    say "removed $UNIT"
    rm -rf "$DESTDIR$VENV"
    rm -f "$DESTDIR$DOC"
    rmdir "$DESTDIR$PREFIX" 2>/dev/null || true
    say "removed $VENV"
    if [ -e "$DESTDIR$TABLE" ]; then
        if cmp -s "$DESTDIR$TABLE" "$EXAMPLE"; then
            rm -f "$DESTDIR$TABLE"
            rmdir "$DESTDIR${TABLE%/*}" 2>/dev/null || true
            say "removed $TABLE (it was the unchanged example)"
        else
            say "kept $TABLE: it is not the example any more (your wiring)"
        fi
    fi
    if $GETENT passwd "$SERVICE_USER" >/dev/null 2>&1; then
        $USERDEL "$SERVICE_USER"
        say "removed the user $SERVICE_USER"
    fi
    say "kept $STATE (saved games): remove it yourself if you no longer want them"
}

case ${1:-} in
    install) do_install ;;
    uninstall) do_uninstall ;;
    *) printf 'usage: %s install|uninstall\n' "$0" >&2; exit 2 ;;
esac
