#!/bin/sh
# Install courtier as a service on Raspberry Pi OS, or take it away again.
#
#   sudo sh systemd/install.sh install      (what `sudo make install` runs)
#   sudo sh systemd/install.sh uninstall    (what `sudo make uninstall` runs)
#
# install, safe to run again (e.g. after `git pull`, to update):
#   1. a venv in $PREFIX/venv holding courtier and its "pi" extra, from this tree;
#   2. the system user "courtier", in the gpio, i2c, spi and dialout groups;
#   3. /etc/courtier/table.toml, copied from hardware/tables/pi-4.toml unless
#      one exists (yours is never overwritten);
#   4. /var/lib/courtier, where saved games go;
#   5. /etc/systemd/system/courtier.service, then daemon-reload and enable.
# uninstall removes 1, 2 and 5, and 3 only while it is still the unchanged
# example; it never removes /var/lib/courtier (saved games).
#
# Settings, from the environment:
#   PREFIX   where the venv goes (default /opt/courtier)
#   DESTDIR  prefixed to every path, to install into a staging or test root;
#            with it set, commands that would change this machine (useradd,
#            usermod, userdel, chown, systemctl) are only printed unless
#            given explicitly below
#   PYTHON   the Python that makes the venv (default python3)
#   USERADD USERMOD USERDEL GETENT CHOWN SYSTEMCTL   the commands used
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

SERVICE_USER=courtier
GROUPS_WANTED="gpio i2c spi dialout"
VENV=$PREFIX/venv
TABLE=/etc/courtier/table.toml
EXAMPLE=$SRC/hardware/tables/pi-4.toml
STATE=/var/lib/courtier
UNIT=/etc/systemd/system/courtier.service

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
        *'|'* | *'&'* | *'\'*) die "PREFIX must not contain |, & or \\" ;;
    esac
    if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
        die "run this as root: sudo make $1"
    fi
}

install_venv() {
    if [ ! -x "$DESTDIR$VENV/bin/python" ]; then
        say "creating the venv $VENV"
        "$PYTHON" -m venv "$DESTDIR$VENV" ||
            die "could not create a venv with $PYTHON (sudo apt install python3-venv)"
    fi
    # pip builds inside the tree it is given; building from a copy leaves no
    # root-owned build/ or egg-info in the user's checkout.
    build=$(mktemp -d)
    trap 'rm -rf "$build"' EXIT
    (cd "$SRC" && tar --exclude=./.venv --exclude=./.git --exclude=./build -cf - .) |
        tar -C "$build" -xf -
    say "installing courtier[pi] from $SRC into $VENV"
    "$DESTDIR$VENV/bin/python" -m pip install --upgrade "$build[pi]" ||
        die "pip failed; if it was building lgpio, run: sudo apt install swig liblgpio-dev python3-dev"
}

install_user() {
    groups=""
    for group in $GROUPS_WANTED; do
        if $GETENT group "$group" >/dev/null 2>&1; then
            groups=${groups:+$groups,}$group
        else
            warn "group '$group' does not exist, so $SERVICE_USER cannot join it;" \
                "Raspberry Pi OS has it (package raspberrypi-sys-mods): create it if a device needs it"
        fi
    done
    if $GETENT passwd "$SERVICE_USER" >/dev/null 2>&1; then
        say "user $SERVICE_USER exists; making sure it is in: $groups"
        if [ -n "$groups" ]; then
            $USERMOD --append --groups "$groups" "$SERVICE_USER"
        fi
    else
        say "creating the system user $SERVICE_USER (groups: $groups)"
        if [ -n "$groups" ]; then
            $USERADD --system --user-group --home-dir "$STATE" --no-create-home \
                --shell /usr/sbin/nologin --groups "$groups" "$SERVICE_USER"
        else
            $USERADD --system --user-group --home-dir "$STATE" --no-create-home \
                --shell /usr/sbin/nologin "$SERVICE_USER"
        fi
    fi
}

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

install_state() {
    mkdir -p "$DESTDIR$STATE"
    chmod 0750 "$DESTDIR$STATE"
    $CHOWN "$SERVICE_USER:$SERVICE_USER" "$DESTDIR$STATE"
}

install_unit() {
    mkdir -p "$DESTDIR${UNIT%/*}"
    sed "s|/opt/courtier|$PREFIX|g" "$SRC/systemd/courtier.service" > "$DESTDIR$UNIT"
    chmod 0644 "$DESTDIR$UNIT"
    say "installed $UNIT (ExecStart=$VENV/bin/courtier)"
    $SYSTEMCTL daemon-reload
    $SYSTEMCTL enable courtier.service
}

do_install() {
    check install
    install_venv
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
    if ! $SYSTEMCTL disable --now courtier.service; then
        warn "systemctl could not stop or disable courtier.service (not installed?)"
    fi
    rm -f "$DESTDIR$UNIT"
    $SYSTEMCTL daemon-reload
    say "removed $UNIT"
    rm -rf "$DESTDIR$VENV"
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
