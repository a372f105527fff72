//! `keyheat replay` and `keyheat fit` on a Redis `MONITOR` capture taken
//! from a real `redis-server` while a skewed client (Zipf-picked keys, some
//! with hash tags) runs GET / SET / INCR: the capture's per-master shares
//! equal the CRC16 arithmetic of the keys the client sent, exactly.
//!
//! Needs Debian's `redis-server` (`.ci/run` installs it); skipped with a
//! visible message without it, failing instead under
//! `KEYHEAT_REQUIRE_SERVERS=1`.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

const MISSING: &str = "install Debian's redis-server package (apt-get install -y redis-server; \
     .ci/run does): the MONITOR replay test captures a real server's traffic";

/// A standalone `redis-server`, killed when dropped.
struct Server {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    for _ in 0..5 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let dir = tempfile::tempdir().expect("temp dir");
        let child = std::process::Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("could not start redis-server ({e}); {MISSING}"));
        let server = Server {
            child,
            port,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if let Ok(mut c) = TcpStream::connect(("127.0.0.1", port)) {
                if c.write_all(b"PING\r\n").is_ok() {
                    let mut line = String::new();
                    if BufReader::new(&c).read_line(&mut line).is_ok() && line.starts_with("+PONG")
                    {
                        return server;
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    panic!("redis-server did not come up");
}

/// A RESP command as bytes.
fn resp(args: &[&[u8]]) -> Vec<u8> {
    let mut b = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        b.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        b.extend_from_slice(a);
        b.extend_from_slice(b"\r\n");
    }
    b
}

/// xorshift64*: the client's fixed, seeded choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The skewed client's keys: 300 keys, rank r drawn with weight r^-1.2;
/// every third key carries a hash tag shared by ten keys.
fn client_keys(n: usize) -> Vec<String> {
    let names: Vec<String> = (1..=300)
        .map(|r| {
            if r % 3 == 0 {
                format!("cart:{{u{}}}:{r}", r / 10)
            } else {
                format!("session:{r}")
            }
        })
        .collect();
    let w: Vec<f64> = (1..=300).map(|r| (r as f64).powf(-1.2)).collect();
    let total: f64 = w.iter().sum();
    let mut rng = Rng(0x5EED_CAFE);
    (0..n)
        .map(|_| {
            let mut u = rng.unit() * total;
            let mut i = 0;
            while i + 1 < w.len() && u >= w[i] {
                u -= w[i];
                i += 1;
            }
            names[i].clone()
        })
        .collect()
}

/// Runs the client against a server under MONITOR; returns the capture and
/// the keys sent, in order.
fn capture(server: &Server) -> (String, Vec<String>) {
    let mut monitor = TcpStream::connect(("127.0.0.1", server.port)).expect("monitor connection");
    monitor
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    monitor.write_all(&resp(&[b"MONITOR"])).expect("MONITOR");
    let mut reader = BufReader::new(monitor.try_clone().expect("clone"));
    let mut ok = String::new();
    reader.read_line(&mut ok).expect("+OK");
    assert!(ok.starts_with("+OK"), "{ok}");
    let keys = client_keys(3000);
    let mut client = TcpStream::connect(("127.0.0.1", server.port)).expect("client connection");
    let mut batch = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let k = k.as_bytes();
        batch.extend(match i % 10 {
            0..=5 => resp(&[b"GET", k]),
            6..=8 => resp(&[b"SET", k, format!("value-{i}").as_bytes()]),
            _ => resp(&[
                b"INCR",
                format!("{}:n", String::from_utf8_lossy(k)).as_bytes(),
            ]),
        });
    }
    batch.extend(resp(&[b"PING"]));
    client.write_all(&batch).expect("send the commands");
    // Read the client's replies so the server is not blocked on output.
    let mut replies = BufReader::new(client);
    let mut captured = String::from("OK\n");
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).expect("a MONITOR line") == 0 {
            panic!("MONITOR closed early");
        }
        let text = line.trim_end().trim_start_matches('+');
        captured.push_str(text);
        captured.push('\n');
        if text.ends_with("\"PING\"") {
            break;
        }
    }
    let mut r = String::new();
    let _ = replies
        .get_mut()
        .set_read_timeout(Some(Duration::from_millis(200)));
    let _ = replies.read_line(&mut r);
    let sent: Vec<String> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            if i % 10 == 9 {
                format!("{k}:n")
            } else {
                k.clone()
            }
        })
        .collect();
    (captured, sent)
}

#[test]
fn monitor_capture_of_a_real_server_replays_to_the_crc16_master_shares() {
    let found = crate::util::program_runs("redis-server");
    if !crate::util::server_available("redis-server", found, MISSING) {
        return;
    }
    let server = start();
    let (text, sent) = capture(&server);
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("monitor.log");
    std::fs::write(&log, &text).expect("write the capture");
    // By hand: CLUSTER KEYSLOT arithmetic of every key the client sent
    // (CRC16 of the key or its hash tag, mod 16,384), over the 3 masters'
    // slot ranges 0–5460, 5461–10922, 10923–16383.
    let ranges = keyheat::store::redis_cluster::slot_ranges(3);
    let mut expected = vec![0u64; 3];
    for k in &sent {
        let slot = keyheat::store::redis_cluster::key_hash_slot(k.as_bytes());
        expected[ranges
            .iter()
            .position(|&(a, b)| (a..=b).contains(&slot))
            .expect("a master")] += 1;
    }
    assert_eq!(expected.iter().sum::<u64>(), 3000);
    let scenario = keyheat::Scenario::from_str_at(
        "schema_version = 1\nname = \"cache\"\n[store]\nkind = \"redis-cluster\"\nmasters = 3\n[[entity]]\nname = \"key\"\ncount = 300\n[[table]]\nname = \"cache\"\npartition_key = \"{key}\"\nitem_size = \"20B\"\n[[access_pattern]]\nname = \"get\"\ntable = \"cache\"\noperation = \"get\"\nrate = 60\n[[access_pattern]]\nname = \"set\"\ntable = \"cache\"\noperation = \"put\"\nrate = 30\n[[access_pattern]]\nname = \"incr\"\ntable = \"cache\"\noperation = \"update\"\nrate = 10\n",
        "cache.toml",
    )
    .expect("scenario");
    let r = keyheat::replay::replay(
        &scenario,
        std::slice::from_ref(&log),
        &Default::default(),
        &|_, _| {},
    )
    .expect("replay");
    let info = r.replay.as_ref().expect("info");
    assert_eq!(
        (info.requests, info.bad_records, info.skipped),
        (3000, 0, 1),
        "{info:?}"
    );
    let reqs: Vec<u64> = info.patterns.iter().map(|p| p.requests).collect();
    assert_eq!(
        reqs,
        vec![1800, 900, 300],
        "GET 6, SET 3, INCR 1 in every 10"
    );
    // One placement: CRC16 is the published hash.
    assert_eq!(r.trials, 1);
    let nodes = r.tables[0].nodes.as_ref().expect("masters");
    let replayed: Vec<u64> = nodes
        .ranks
        .iter()
        .map(|x| ((x.read_units_per_s + x.write_units_per_s) * r.duration_s).round() as u64)
        .collect();
    let mut want = expected.clone();
    want.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(replayed, want, "per-master requests");
    let shares: Vec<f64> = replayed.iter().map(|&c| c as f64 / 3000.0).collect();
    let want_shares: Vec<f64> = want.iter().map(|&c| c as f64 / 3000.0).collect();
    assert_eq!(shares, want_shares);
    // The busiest master's share is the hottest node share of the replay.
    assert!((nodes.hottest_node_share.mean - want_shares[0]).abs() < 1e-12);
    // fit reads the same capture: 3,000 requests over the 300 keys sent.
    let f = keyheat::fit::fit(&[log], &Default::default(), 1 << 20, &|_, _| {}).expect("fit");
    let distinct: std::collections::BTreeSet<&String> = sent.iter().collect();
    assert_eq!(
        (f.requests, f.popularity.count),
        (3000, distinct.len() as u64)
    );
    assert_eq!(f.ops, vec![("get", 1800), ("put", 900), ("update", 300)]);
}
