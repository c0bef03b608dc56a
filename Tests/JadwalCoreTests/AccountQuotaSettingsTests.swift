import Foundation
import JadwalCore
import Testing

@Suite("Account quota settings from the environment")
struct AccountQuotaSettingsTests {
    @Test("unset keeps the defaults; set values are taken; a bad one is refused naming the variable")
    func environment() throws {
        #expect(try ConfigurationValue.accountQuota(environment: [:]) == AccountQuota())
        let set = try ConfigurationValue.accountQuota(environment: ["JADWAL_QUOTA_MB": "5", "JADWAL_QUOTA_OBJECTS": " 300 ", "JADWAL_QUOTA_CALENDARS": ""])
        #expect(set == AccountQuota(bytes: 5 << 20, objects: 300, calendars: AccountQuota().calendars))
        for (name, value) in [("JADWAL_QUOTA_MB", "0"), ("JADWAL_QUOTA_MB", "lots"), ("JADWAL_QUOTA_OBJECTS", "-1"), ("JADWAL_QUOTA_CALENDARS", "1.5")] {
            #expect {
                _ = try ConfigurationValue.accountQuota(environment: [name: value])
            } throws: { error in
                "\(error)".contains(name) && "\(error)".contains(value)
            }
        }
    }
}
