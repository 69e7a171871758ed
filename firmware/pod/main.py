"""courtier seat pod: MicroPython entry point for an RP2040 board.

Wiring (change the settings below to match yours): an SSD1306 128x64 OLED
on I2C, three push buttons from GPIO to ground (prev, next, ok; the internal
pull-ups are used), and the link to the Pi: USB (the board's USB CDC serial,
``sys.stdin``/``sys.stdout``) or a UART.

All protocol, layout and button logic is in ``podlogic.py``; this file only
connects it to ``machine``, the ``ssd1306`` driver and the clock. Hold ok
while the pod starts to skip the program and keep the REPL (for ``mpremote``).
"""

import sys
import time

import machine
import micropython
import select
import ssd1306

import podlogic

# --- settings ---------------------------------------------------------------------
NAME = "courtier-pod"
TRANSPORT = "usb"          # "usb" or "uart"
UART_ID, UART_TX, UART_RX, BAUDRATE = 0, 0, 1, 115200
I2C_ID, I2C_SDA, I2C_SCL, I2C_FREQ = 1, 2, 3, 400000
OLED_ADDRESS = 0x3C
BUTTON_PINS = {"prev": 10, "next": 11, "ok": 12}
POLL_MS = 5                # how often the buttons are sampled
HELLO_EVERY_MS = 2000      # say hello again until the Pi sends a face
CRASH_PAUSE_MS = 5000      # how long an unexpected error stays on screen before a restart


class UsbLink:
    """The USB CDC serial port (the REPL's), read without blocking."""

    def __init__(self):
        # Bytes from the Pi must never interrupt the program as Ctrl-C would.
        micropython.kbd_intr(-1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 512 and self._poll.poll(0):
            data += sys.stdin.buffer.read(1)
        return data

    def write(self, line):
        sys.stdout.buffer.write(line)


class UartLink:
    """A hardware UART."""

    def __init__(self):
        self._uart = machine.UART(UART_ID, baudrate=BAUDRATE, tx=machine.Pin(UART_TX),
                                  rx=machine.Pin(UART_RX), rxbuf=1024)

    def read(self):
        waiting = self._uart.any()
        return (self._uart.read(waiting) or b"") if waiting else b""

    def write(self, line):
        self._uart.write(line)


def open_display():
    i2c = machine.I2C(I2C_ID, sda=machine.Pin(I2C_SDA), scl=machine.Pin(I2C_SCL), freq=I2C_FREQ)
    return ssd1306.SSD1306_I2C(128, 64, i2c, addr=OLED_ADDRESS)


def open_buttons():
    return {name: machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
            for name, pin in BUTTON_PINS.items()}


def draw(oled, rows, inverted, frame=None):
    """Draw the rows, 8 pixels each; inverted rows white on black; a frame's pixels first, if any."""
    oled.fill(0)
    if frame is not None:
        import framebuf

        oled.blit(framebuf.FrameBuffer(bytearray(frame), 128, 64, framebuf.MONO_HLSB), 0, 0)
    for index, row in enumerate(rows):
        if frame is not None and not row:
            continue
        y = index * 8
        if frame is not None:
            oled.fill_rect(0, y, 128, 8, 0)  # a row over the pixels (the Pi's complaint) is on black
        if index in inverted:
            oled.fill_rect(0, y, 128, 8, 1)
            oled.text(row, 0, y, 0)
        else:
            oled.text(row, 0, y, 1)
    oled.show()


def run(link, oled, buttons, pod=None, steps=None):
    """The pod's loop: read the Pi, sample the buttons, redraw when the face changed.

    Args:
        link: ``UsbLink`` or ``UartLink`` (anything with ``read()`` and ``write(bytes)``).
        oled: The SSD1306 (``fill``, ``fill_rect``, ``text``, ``show``).
        buttons: Pins by button name; a pressed button reads 0.
        pod: The ``podlogic.Pod`` (a new one if None).
        steps: Stop after this many turns (None: forever).
    """
    pod = pod or podlogic.Pod(NAME)
    gestures = podlogic.Gestures(diff=time.ticks_diff)
    link.write(pod.hello())
    last_hello = time.ticks_ms()
    while steps is None or steps > 0:
        now = time.ticks_ms()
        data = link.read()
        if data:
            for reply in pod.receive(data):
                link.write(reply)
        levels = {name: pin.value() == 0 for name, pin in buttons.items()}
        for button, gesture in gestures.sample(now, levels):
            link.write(pod.button(button, gesture))
        if pod.dirty:
            draw(oled, pod.rows, pod.inverted, pod.frame)
            pod.dirty = False
        if pod.face is None and time.ticks_diff(now, last_hello) >= HELLO_EVERY_MS:
            link.write(pod.hello())
            last_hello = now
        time.sleep_ms(POLL_MS)
        if steps is not None:
            steps -= 1
    return pod


def show_crash(oled, error):
    """Put an unexpected error on the screen (the Pi cannot see the pod's traceback)."""
    text = podlogic.to_ascii("pod error: " + repr(error))
    rows = podlogic.wrap(text)[:podlogic.ROWS]
    draw(oled, [podlogic.pad(row) for row in rows], ())


def main():
    buttons = open_buttons()
    if buttons["ok"].value() == 0:
        print("courtier pod: ok held at start; staying in the REPL")
        return
    oled = open_display()
    link = UartLink() if TRANSPORT == "uart" else UsbLink()
    try:
        run(link, oled, buttons)
    except Exception as error:   # never fall into the REPL: it would echo and run the Pi's lines
        show_crash(oled, error)
        time.sleep_ms(CRASH_PAUSE_MS)
        machine.reset()


if __name__ == "__main__":
    main()
