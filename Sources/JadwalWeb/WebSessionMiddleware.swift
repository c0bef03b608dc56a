import Foundation
import Hummingbird
import JadwalCore
import JadwalHTTP
import NIOCore

/// In front of the web app's signed-in pages: a browser without a session goes to the sign-in
/// page (and comes back after); a form post must carry this session's CSRF token and come from
/// a Jadwal page, and its body is read here once, for the route to decode.
package struct WebSessionMiddleware: RouterMiddleware {
    package typealias Context = JadwalRequestContext
    package let browser: BrowserSession
    package let assets: WebAssets

    /// Forms are small; file uploads go to the JSON API with the CSRF header instead.
    package static let formLimit = 256 * 1024

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let resolved = await browser.resolve(request) else {
            var response = WebPage.redirect("/")
            if BrowserSession.hasCookies(request) { for cookie in browser.clearingCookies() { response.setCookie(cookie) } }
            return response
        }
        var context = context.signedIn(resolved.identity)
        if request.isStateChanging, Self.isUpload(request) {
            // A file upload (multipart) is left unread for the route, which streams it against its
            // own limit; its token comes in the header or in the form's action URL.
            let presented = request.headers[.csrfToken] ?? request.uri.queryParameters.get("_csrf")
            guard BrowserSession.isSameOrigin(request), browser.isValidCSRF(presented, sessionID: resolved.identity.session.id) else {
                return problem(.forbidden, key: "errorFormExpired", language: resolved.identity.account.language, path: request.uri.path)
            }
        } else if request.isStateChanging {
            let language = resolved.identity.account.language
            let body: String
            do {
                let buffer = try await request.body.collect(upTo: Self.formLimit)
                body = String(decoding: buffer.readableBytesView, as: UTF8.self)
            } catch is NIOTooManyBytesError {
                return problem(.contentTooLarge, key: "errorFormTooLarge", language: language, path: request.uri.path)
            }
            let presented = (try? URLEncodedFormDecoder().decode(CSRFField.self, from: body))?._csrf ?? request.headers[.csrfToken]
            guard BrowserSession.isSameOrigin(request), browser.isValidCSRF(presented, sessionID: resolved.identity.session.id) else {
                return problem(.forbidden, key: "errorFormExpired", language: language, path: request.uri.path)
            }
            context.formBody = body
        }
        let signedIn = context
        let language = resolved.identity.account.language
        return try await BrowserSession.deliver(resolved.renewal, request, signedIn) {
            // A page's failure is a page too, in the person's language, never a JSON body.
            let texts = assets.texts(language)
            func problemPage(_ message: String, status: HTTPResponse.Status) -> Response {
                WebPage(template: "problem", title: texts.text("errorTitle"), page: ["message": message, "back": "/calendar"], status: status)
                    .response(assets, viewer: .init(
                        language: language, identity: resolved.identity, csrf: browser.csrfToken(sessionID: resolved.identity.session.id), path: request.uri.path))
            }
            do {
                return try await next(request, signedIn)
            } catch let error as HTTPError {
                return problemPage(error.status == .notFound ? texts.text("errorNotFound") : (error.body ?? texts.text("errorTitle")), status: error.status)
            } catch let full as AccountQuota.Exceeded {
                let (allowed, used) = full.limit == .bytes
                    ? (AccountQuota.Exceeded.megabytes(full.allowed), AccountQuota.Exceeded.megabytes(full.used))
                    : (String(full.allowed), String(full.used))
                return problemPage(texts.text("errorQuota_" + full.limit.rawValue, ["allowed": allowed, "used": used]),
                                   status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"))
            } catch is StorageFull {
                signedIn.logger.error("database disk full; nothing was written")
                return problemPage(texts.text("errorDiskFull"), status: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"))
            } catch let busy as StoreUnavailable {
                // Nothing was written: the same form may be sent again.
                signedIn.logger.warning("database unavailable", metadata: ["reason": "\(busy.reason)"])
                var response = problemPage(texts.text("errorBusy", ["seconds": String(busy.retryAfterSeconds)]), status: .serviceUnavailable)
                response.headers[.retryAfter] = String(busy.retryAfterSeconds)
                return response
            }
        }
    }

    package static func isUpload(_ request: Request) -> Bool {
        request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true
    }

    private struct CSRFField: Decodable {
        package let _csrf: String?
    }

    private func problem(_ status: HTTPResponse.Status, key: String, language: Language, path: String) -> Response {
        let texts = assets.texts(language)
        return WebPage(template: "problem", title: texts.text("errorTitle"), page: ["message": texts.text(key), "back": "/calendar"], status: status)
            .response(assets, viewer: .init(language: language, path: path))
    }

}

extension JadwalRequestContext {
    /// A web form post's fields, decoded from the body the middleware read.
    package func form<Form: Decodable>(_ type: Form.Type) throws -> Form {
        do {
            return try URLEncodedFormDecoder().decode(type, from: formBody ?? "")
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read. Reload the page and try again.")
        }
    }
}
