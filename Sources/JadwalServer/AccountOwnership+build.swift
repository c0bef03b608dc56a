import Foundation
import JadwalCore
import JadwalHTTP
import JadwalJobs
import JadwalMail

/// The services of owning an account with the emails they send, built the same way for the
/// server and for the operator's commands (`jadwal user delete` queues the last email the
/// server's workers then send). Every email is sealed in the queue: links are secrets, and
/// after a deletion nothing readable of the account may stay behind.
package func accountOwnership(
    _ configuration: ServerConfiguration, store: any Store, secret: ServerSecret, clock: Clock, random: RandomSource
) -> AccountOwnership {
    let sealer = PayloadSealer(secret: secret)
    let emails = AccountEmails(publicURL: configuration.effectivePublicURL, from: configuration.mailFrom)
    let job = { @Sendable (message: MailMessage, now: Date) throws -> Job in
        try EmailDelivery.job(message, sealWith: sealer, now: now, random: random, maxAttempts: 5)
    }
    // A link's email goes with the account if it is deleted before the email is sent.
    let linkJob = { @Sendable (message: MailMessage, account: Account, now: Date) throws -> Job in
        var queued = try job(message, now)
        queued.subject = AccountLinkRecord.mailSubject(account)
        return queued
    }
    return AccountOwnership(
        firstRun: FirstRun(store: store, clock: clock),
        emailChanges: EmailChanges(
            store: store, clock: clock, random: random,
            notices: .init(
                confirmation: { token, account, newEmail, now in try linkJob(emails.emailChangeLink(token: token, account: account, newEmail: newEmail), account, now) },
                addressTaken: { account, newEmail, now in try job(emails.emailAddressTaken(account: account, newEmail: newEmail), now) },
                changed: { account, oldEmail, now in try job(emails.emailChanged(account: account, oldEmail: oldEmail), now) })),
        export: AccountExport(store: store, clock: clock, random: random),
        deletion: AccountDeletion(
            store: store, clock: clock, random: random,
            notices: .init(
                confirmation: { token, account, now in try linkJob(emails.deletionLink(token: token, account: account), account, now) },
                deleted: { account, now in try job(emails.accountDeleted(account: account), now) })))
}

/// The same for a command outside the server: the secret from `JADWAL_SECRET_KEY` or the data
/// directory's key file, as `jadwal serve` reads it.
package func accountOwnership(_ configuration: ServerConfiguration, store: any Store) throws -> AccountOwnership {
    let secret = try configuration.secretKey.map { try ServerSecret(base64: $0) } ?? ServerSecret.loadOrCreate(at: configuration.secretKeyPath)
    return accountOwnership(configuration, store: store, secret: secret, clock: .system, random: .system)
}
