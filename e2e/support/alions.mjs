// What ali-ons (npm) needs to talk to rocketmq-rust's broker, which parses requests more strictly
// than Java's: see the top of alions_broker.test.mjs. Each patch returns a function that undoes it.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// Request headers as a Java client writes them: the `serializeTypeCurrentRPC` key, and every ext
// field value a string (ali-ons sends numbers).
export function javaStyleHeaders() {
  const RemotingCommand = require('ali-ons/lib/protocol/command/remoting_command');
  const original = RemotingCommand.prototype.buildHeader;
  RemotingCommand.prototype.buildHeader = function javaStyleHeader() {
    const header = JSON.parse(original.call(this).toString('utf8'));
    header.extFields = Object.fromEntries(Object.entries(header.extFields ?? {}).map(([k, v]) => [k, String(v)]));
    header.serializeTypeCurrentRPC = 'JSON';
    return Buffer.from(JSON.stringify(header), 'utf8');
  };
  return () => { RemotingCommand.prototype.buildHeader = original; };
}

// Heartbeats whose subscriptions carry the `expressionType` Java always writes ("TAG"); without
// it the broker answers "Serialization failed".
export function heartbeatsWithExpressionType() {
  const MQClientAPI = require('ali-ons/lib/mq_client_api');
  const original = MQClientAPI.prototype.sendHearbeat;
  MQClientAPI.prototype.sendHearbeat = function withExpressionType(addr, data, timeout) {
    for (const c of data.consumerDataSet) for (const sd of c.subscriptionDataSet) sd.expressionType ??= 'TAG';
    return original.call(this, addr, data, timeout);
  };
  return () => { MQClientAPI.prototype.sendHearbeat = original; };
}
