"""Jadwal's WhatsApp bridge: a linked device (neonize / whatsmeow) per account, delivering
messages to the Jadwal server over loopback as connector batches."""
