#!/usr/bin/env python3
"""html-check.py -- load a page of aprof --format=html in headless chromium,
driven through the Chrome DevTools protocol over a pipe (no packages beyond
Python's own), and print as JSON what the page's self-test wrote into
#selftest and every console error or uncaught exception the browser saw.

Usage: html-check.py CHROMIUM PAGE.html QUERY [SCREENSHOT.png | --timing]
QUERY is the page's self-test query ("?leaf=...&zoom=...", may be empty).
Waits for the self-test however slow the machine (up to 120 s), so that the
result never depends on its speed.  With SCREENSHOT, runs no self-test but
saves the page as first drawn, 1280x900; with --timing, runs none either
but gives first_render_ms, the page's data-first-render (milliseconds from
navigation to the first paint of the graph and the table).
"""
import base64
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time


class Browser:
    """A headless chromium and one page in it, spoken to over --remote-debugging-pipe."""

    def __init__(self, chromium):
        self.profile = tempfile.TemporaryDirectory()
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # chromium reads commands on fd 3 and writes replies on fd 4.

        def child_fds():
            r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)
        self.proc = subprocess.Popen(
            [chromium, '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
             '--disable-extensions', '--user-data-dir=' + self.profile.name,
             '--window-size=1280,900', '--remote-debugging-pipe', 'about:blank'],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(3, 4), preexec_fn=child_fds)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b''
        self.next_id = 0
        self.session = None
        self.errors = []

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session and self.session:
            msg['sessionId'] = self.session
        os.write(self.to_chrome, json.dumps(msg).encode() + b'\0')
        while True:
            reply = self.receive()
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise RuntimeError('%s: %s' % (method, reply['error']))
                return reply.get('result', {})

    def receive(self):
        while b'\0' not in self.buf:
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError('chromium closed its pipe')
            self.buf += chunk
        raw, self.buf = self.buf.split(b'\0', 1)
        msg = json.loads(raw)
        self.note(msg)
        return msg

    def note(self, msg):
        """Keeps the console errors and exceptions among the events."""
        method, p = msg.get('method'), msg.get('params', {})
        if method == 'Runtime.exceptionThrown':
            d = p['exceptionDetails']
            self.errors.append(d.get('exception', {}).get('description') or d.get('text'))
        elif method == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
            self.errors.append(' '.join(str(a.get('value', a.get('description'))) for a in p['args']))
        elif method == 'Log.entryAdded' and p['entry'].get('level') == 'error':
            self.errors.append(p['entry'].get('text'))

    def open(self, url):
        target = self.send('Target.createTarget', {'url': 'about:blank'}, session=False)
        self.session = self.send('Target.attachToTarget',
                                 {'targetId': target['targetId'], 'flatten': True},
                                 session=False)['sessionId']
        for domain in ('Runtime', 'Log', 'Page'):
            self.send(domain + '.enable')
        self.send('Emulation.setDeviceMetricsOverride',
                  {'width': 1280, 'height': 900, 'deviceScaleFactor': 1, 'mobile': False})
        self.send('Page.navigate', {'url': url})

    def evaluate(self, expr):
        r = self.send('Runtime.evaluate', {'expression': expr, 'returnByValue': True})
        return r.get('result', {}).get('value')

    def close(self):
        try:
            self.send('Browser.close', session=False)
        except RuntimeError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.profile.cleanup()


def main():
    chromium, page, query = sys.argv[1:4]
    shot = sys.argv[4] if len(sys.argv) > 4 else None
    url = 'file://' + os.path.abspath(page) + query + ('' if shot else '#selftest')
    b = Browser(chromium)
    out = {}
    try:
        b.open(url)
        deadline = time.time() + 120
        wait_for = ("document.body && document.body.dataset.firstRender" if shot else
                    "document.getElementById('selftest').textContent")
        while time.time() < deadline and not b.evaluate(wait_for):
            time.sleep(0.05)
        if shot == '--timing':
            out['first_render_ms'] = float(b.evaluate('document.body.dataset.firstRender'))
            out['marks_ms'] = b.evaluate("Object.fromEntries(performance.getEntriesByType('mark')"
                                         ".map((m) => [m.name, Math.round(m.startTime)]))")
        elif shot:
            time.sleep(1)
            png = b.send('Page.captureScreenshot', {'format': 'png'})['data']
            with open(shot, 'wb') as f:
                f.write(base64.b64decode(png))
        else:
            text = b.evaluate("document.getElementById('selftest').textContent")
            out['selftest'] = json.loads(text) if text else None
    finally:
        out['console_errors'] = b.errors
        b.close()
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()
