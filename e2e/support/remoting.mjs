// A tiny RocketMQ remoting client for the end-to-end tests: it plays a broker against a real
// NameServer (register with a topic table, keep the connection open, close it to leave). Test code
// only; RouteLab's own client is the Rust one in src/net.
import net from 'node:net';
import zlib from 'node:zlib';

// Frame: int32 total length | int32 (serialize type << 24 | header length) | header | body.
function frame(header, body) {
  const h = Buffer.from(JSON.stringify(header));
  const b = body ? Buffer.from(body) : Buffer.alloc(0);
  const prefix = Buffer.alloc(8);
  prefix.writeInt32BE(4 + h.length + b.length, 0);
  prefix.writeInt32BE(h.length, 4); // type 0 = JSON
  return Buffer.concat([prefix, h, b]);
}

export class Connection {
  static open(port, host = '127.0.0.1') {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, host, () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  constructor(socket) {
    this.socket = socket;
    this.opaque = 0;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => this.#read(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      for (const { reject } of this.pending.values()) reject(new Error('connection closed'));
      this.pending.clear();
    });
  }

  #read(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 4) {
      const total = this.buffer.readInt32BE(0);
      if (this.buffer.length < 4 + total) return;
      const headerLen = this.buffer.readInt32BE(4) & 0xffffff;
      const header = JSON.parse(this.buffer.subarray(8, 8 + headerLen).toString());
      const body = this.buffer.subarray(8 + headerLen, 4 + total);
      this.buffer = this.buffer.subarray(4 + total);
      const waiter = this.pending.get(header.opaque);
      if (waiter) {
        this.pending.delete(header.opaque);
        waiter.resolve({ header, body: body.toString() });
      }
    }
  }

  request(code, extFields, body) {
    const opaque = ++this.opaque;
    const stringFields = Object.fromEntries(Object.entries(extFields).map(([k, v]) => [k, String(v)]));
    const header = {
      code, language: 'JAVA', version: 413, opaque, flag: 0,
      extFields: stringFields, serializeTypeCurrentRPC: 'JSON',
    };
    return new Promise((resolve, reject) => {
      this.pending.set(opaque, { resolve, reject });
      this.socket.write(frame(header, body));
    });
  }

  close() {
    this.socket.destroy();
  }
}

const REGISTER_BROKER = 103;

// Registers a broker the way a 5.x broker does (every body field present: strict servers want them).
// topics: { name: [readQueues, writeQueues, perm] }. Resolves with the response header.
export async function registerBroker(conn, { cluster, name, addr, id = 0, topics }) {
  const now = Date.now();
  const table = Object.fromEntries(Object.entries(topics).map(([topic, [r, w, perm]]) => [topic, {
    topicName: topic, readQueueNums: r, writeQueueNums: w, perm,
    topicFilterType: 'SINGLE_TAG', topicSysFlag: 0, order: false, attributes: {},
  }]));
  const body = JSON.stringify({
    topicConfigSerializeWrapper: {
      topicConfigTable: table,
      dataVersion: { stateVersion: 0, timestamp: now, counter: Object.keys(table).length },
      mappingDataVersion: { stateVersion: 0, timestamp: now, counter: 0 },
      topicQueueMappingInfoMap: {}, topicQueueMappingDetailMap: {},
    },
    filterServerList: [],
  });
  const [host, port] = addr.split(':');
  const response = await conn.request(REGISTER_BROKER, {
    brokerName: name, brokerAddr: addr, clusterName: cluster,
    haServerAddr: `${host}:${Number(port) + 1}`, brokerId: id, compressed: false,
    bodyCrc32: zlib.crc32(body) & 0x7fffffff,
  }, body);
  if (response.header.code !== 0) throw new Error(`register ${name}: code ${response.header.code} ${response.header.remark}`);
  return response.header;
}
