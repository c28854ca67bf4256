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

// Members that answer GET_CONSUMER_RUNNING_INFO (307), which a broker passes on from mqadmin's
// `consumerProgress -s true` and from RouteLab's bridge, as a Java client does
// (ClientRemotingProcessor.getConsumerRunningInfo); ali-ons leaves requests from a broker
// unanswered, and the broker gives up after 5 s. The answer holds what the member really holds: the
// queues of its process queue table, written as fastjson writes ConsumerRunningInfo (a MessageQueue
// key is an object, its fields sorted).
export function answersRunningInfo() {
  const RemotingClient = require('ali-ons/lib/remoting_client');
  const RemotingCommand = require('ali-ons/lib/protocol/command/remoting_command');
  const GET_CONSUMER_RUNNING_INFO = 307;
  const original = RemotingClient.prototype.getAndCreateChannel;
  const answering = new WeakSet();
  RemotingClient.prototype.getAndCreateChannel = function answeringRunningInfo(addr) {
    const channel = original.call(this, addr);
    if (answering.has(channel)) return channel;
    answering.add(channel);
    channel.on('request', ({ data: request }) => {
      if (request.code !== GET_CONSUMER_RUNNING_INFO) return;
      const group = request.extFields?.consumerGroup;
      // An MQClient is the remoting client of every consumer of its process.
      const consumer = this._consumerTable?.get(group);
      const response = consumer
        ? RemotingCommand.createResponseCommand(0, request.opaque, null)
        : RemotingCommand.createResponseCommand(1, request.opaque, `The Consumer Group <${group}> not exist in this consumer`);
      if (consumer) response.body = Buffer.from(runningInfo(consumer), 'utf8');
      channel.sendPromise({ id: request.opaque, data: response.encode(), oneway: true }).catch(() => {});
    });
    return channel;
  };
  return () => { RemotingClient.prototype.getAndCreateChannel = original; };
}

function runningInfo(consumer) {
  const queues = [...consumer.processQueueTable.values()].map(({ messageQueue: mq }) =>
    `${JSON.stringify({ brokerName: mq.brokerName, queueId: mq.queueId, topic: mq.topic })}:{}`);
  const subscriptions = [...consumer.subscriptions.values()].map(({ subscriptionData: sd }) => ({ subString: sd.subString, topic: sd.topic }));
  return `{"jstack":"","mqTable":{${queues.join(',')}},"properties":{"PROP_CONSUME_TYPE":"CONSUME_PASSIVELY"},`
    + `"statusTable":{},"subscriptionSet":${JSON.stringify(subscriptions)}}`;
}
