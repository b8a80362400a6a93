"""Pushes to apps that are closed (issue 48): Web Push (RFC 8030 with aes128gcm payloads and VAPID) to the browsers
and FCM HTTP v1 to the native apps the players registered, made from their feeds' events and sent by the workers."""
