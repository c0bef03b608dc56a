/// Paths that more than one front door names: the API serves them, the web app shows them.
public enum HTTPPaths {
    /// Where Meta's WhatsApp Cloud API posts messages (the settings page shows the full URL).
    public static let whatsAppWebhook = "webhooks/whatsapp"
}
