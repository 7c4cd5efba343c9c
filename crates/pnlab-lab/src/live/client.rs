//! A live-class client for programs (the load bench, the tests): one
//! WebSocket to `/live`, typed messages, and a count of the bytes each
//! way. The page and the app have their own (the browser's WebSocket).

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::error::ClientError;
use super::protocol::{ClientMsg, ServerMsg};

/// One connection to a live-class server.
pub struct LiveClient {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Text bytes sent so far.
    pub sent_bytes: u64,
    /// Text bytes received so far.
    pub received_bytes: u64,
}

impl LiveClient {
    /// Connects to `ws://ADDR/live`.
    pub async fn connect(addr: std::net::SocketAddr) -> Result<LiveClient, ClientError> {
        let url = format!("ws://{addr}/live");
        let (ws, _) = match tokio_tungstenite::connect_async(url.as_str()).await {
            Ok(ok) => ok,
            Err(e) => {
                return Err(ClientError::Connect {
                    url,
                    source: Box::new(e),
                })
            }
        };
        Ok(LiveClient {
            ws,
            sent_bytes: 0,
            received_bytes: 0,
        })
    }

    /// Sends a message.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        self.send_text(&msg.to_text()).await
    }

    /// Sends any text frame (the tests send broken ones).
    pub async fn send_text(&mut self, text: &str) -> Result<(), ClientError> {
        self.sent_bytes += text.len() as u64;
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| ClientError::Send(Box::new(e)))
    }

    /// Sends a binary frame (which the server refuses).
    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> Result<(), ClientError> {
        self.ws
            .send(Message::Binary(bytes.into()))
            .await
            .map_err(|e| ClientError::Send(Box::new(e)))
    }

    /// The next message from the server; `None` once the connection is
    /// closed.
    pub async fn recv(&mut self) -> Option<ServerMsg> {
        loop {
            match self.ws.next().await? {
                Ok(Message::Text(t)) => {
                    self.received_bytes += t.len() as u64;
                    return ServerMsg::parse(t.as_str()).ok();
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
