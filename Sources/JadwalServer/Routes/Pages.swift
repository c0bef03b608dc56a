import Foundation
import Hummingbird

/// The two browser pages sign-in needs before the web app exists: asking for a link, and
/// the page the link opens.
///
/// The link page does not redeem the token on GET: mail scanners fetch links in emails, and a
/// single-use token spent by a scanner would lock the person out. The page redeems it with a
/// POST from the browser instead.
enum Pages {
    static func html(_ body: String, title: String) -> Response {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}
            input,button{font:inherit;padding:.5rem}button{background:#0b6e4f;color:#fff;border:0;border-radius:6px;padding:.5rem 1rem}
            #status{margin-top:1rem}</style></head>
            <body>\(body)</body></html>
            """
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: page))
        )
    }

    static let signIn = html("""
        <h1>Jadwal · جدول</h1>
        <p>Sign in with a link sent to your email — no password.</p>
        <form id="f"><input id="email" type="email" required placeholder="you@example.com" autocomplete="email">
        <button>Email me a link</button></form>
        <p id="status" role="status"></p>
        <script>
        document.getElementById('f').addEventListener('submit', async (e) => {
          e.preventDefault();
          const r = await fetch('/api/v1/auth/email', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({email: document.getElementById('email').value})});
          const j = await r.json();
          document.getElementById('status').textContent = r.ok ? j.message : j.error.message;
        });
        </script>
        """, title: "Sign in · Jadwal")

    static let magicLink = html("""
        <h1>Signing you in…</h1>
        <p id="status" role="status"></p>
        <script>
        (async () => {
          const token = new URLSearchParams(location.search).get('token') || '';
          const r = await fetch('/api/v1/auth/magic', {method: 'POST', headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({token})});
          const j = await r.json();
          const status = document.getElementById('status');
          if (!r.ok) { status.textContent = j.error.message; document.querySelector('h1').textContent = 'Sign-in failed'; return; }
          localStorage.setItem('jadwal.session', JSON.stringify(j));
          history.replaceState(null, '', '/auth/magic');
          document.querySelector('h1').textContent = 'Signed in';
          status.textContent = 'Signed in as ' + j.account.email + '.';
        })();
        </script>
        """, title: "Signing in · Jadwal")
}
