/// The JSON of a Cloud API "messages" webhook delivery, as Meta sends it. Every field is optional
/// here, so that a missing one is reported by `CloudAPIWebhook` with its path instead of as a
/// Codable `keyNotFound`; fields Jadwal does not read are not declared, so they are ignored.
enum CloudAPIWire {
    struct Notification: Decodable {
        let object: String?
        let entry: [Entry]?

        private enum CodingKeys: String, CodingKey { case object, entry }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            object = try container.decodeIfPresent(String.self, forKey: .object)
            // Another product's webhook (Messenger's "page", Instagram's "instagram") has other
            // entries: leave them unread so the answer is "wrong object", not a type error inside.
            entry = object == CloudAPIWebhook.businessAccountObject
                ? try container.decodeIfPresent([Entry].self, forKey: .entry) : nil
        }
    }

    struct Entry: Decodable {
        let changes: [Change]?
    }

    struct Change: Decodable {
        let field: String?
        let value: Value?

        private enum CodingKeys: String, CodingKey { case field, value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            field = try container.decodeIfPresent(String.self, forKey: .field)
            // The values of other fields (account_update, templates, ...) have shapes of their own.
            value = CloudAPIWebhook.chatFields.contains(field ?? "") ? try container.decodeIfPresent(Value.self, forKey: .value) : nil
        }
    }

    struct Value: Decodable {
        let metadata: Metadata?
        let contacts: [Contact]?
        let messages: [Message]?
        /// What the owner sent from the WhatsApp Business app (`smb_message_echoes`).
        let messageEchoes: [Message]?
        /// Only counted: the statuses of messages the business sent.
        let statuses: [Ignored]?

        private enum CodingKeys: String, CodingKey {
            case metadata, contacts, messages, statuses
            case messageEchoes = "message_echoes"
        }
    }

    struct Metadata: Decodable {
        let phoneNumberID: String?

        private enum CodingKeys: String, CodingKey { case phoneNumberID = "phone_number_id" }
    }

    struct Contact: Decodable {
        let waID: String?
        let profile: Profile?

        private enum CodingKeys: String, CodingKey {
            case waID = "wa_id"
            case profile
        }
    }

    struct Profile: Decodable {
        let name: String?
    }

    struct Message: Decodable {
        let from: String?
        /// Only in echoes: the customer the business wrote to.
        let to: String?
        let id: String?
        let timestamp: String?
        let type: String?
        let text: Text?
        let image: Media?
        let video: Media?
        let document: Media?
        let context: Context?
    }

    struct Text: Decodable {
        let body: String?
    }

    /// The part of an image, video or document object that carries words.
    struct Media: Decodable {
        let caption: String?
    }

    struct Context: Decodable {
        let id: String?
    }

    /// Any JSON value, read without looking inside.
    struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
